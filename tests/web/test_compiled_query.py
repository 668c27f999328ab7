"""A query compiled once and run with each call's own values
(tabletop/services/table/compiled_query.py) answers as the ORM's queryset would."""

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from tabletop.services.table.compiled_query import (
    STAND_ID,
    STAND_NOW,
    STAND_TEXT,
    CompiledQuery,
    Stand,
)


def _users(user_id: int, name: str, joined_before: object) -> object:
    return (
        User.objects.filter(pk__gte=user_id, username__gte=name)
        .filter(date_joined__lt=joined_before)
        .order_by("pk")
    )


USERS = CompiledQuery(_users, STAND_ID, STAND_TEXT, STAND_NOW)


@pytest.mark.django_db
def test_each_call_binds_its_own_values_and_reads_what_the_orm_reads() -> None:
    now = timezone.now()
    made = [User.objects.create(username=f"{prefix}{n}") for prefix in "ab" for n in range(3)]
    for user_id, name, before in [
        (made[0].pk, "a", now + timedelta(days=1)),
        (made[1].pk, "b", now + timedelta(days=1)),
        (made[0].pk, "a", now - timedelta(days=1)),
    ]:
        expected = list(_users(user_id, name, before))  # type: ignore[call-overload]
        assert USERS.bound().instances((user_id, name, before)) == expected
        first = USERS.first(user_id, name, before)
        assert first == (expected[0] if expected else None)


@pytest.mark.django_db
def test_none_is_refused_not_matched_against_nothing() -> None:
    """The ORM compiles `= None` as IS NULL; the compiled `= %s` with None would match no
    row and say nothing."""
    User.objects.create(username="a1")
    with pytest.raises(ValueError, match="argument 1 is None"):
        USERS.first(0, None, timezone.now())


def test_a_stand_in_the_query_does_not_hold_is_refused() -> None:
    unused = Stand(-1_234_567)
    query = CompiledQuery(lambda user_id, other: User.objects.filter(pk=user_id), STAND_ID, unused)
    with pytest.raises(ValueError, match="stand-in"):
        query.bound()


@pytest.mark.django_db
def test_many_calls_in_one_statement_read_what_each_call_reads(django_assert_num_queries) -> None:
    """`first_for_each`: the query run for each call's values, in one statement (a LATERAL
    join over the calls' arguments, on PostgreSQL), each call given its own first row."""
    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.skip("one statement for many calls is PostgreSQL's")
    now = timezone.now()
    made = [User.objects.create(username=f"{prefix}{n}") for prefix in "ab" for n in range(3)]
    calls = [
        (made[0].pk, "a", now + timedelta(days=1)),
        (made[1].pk, "b", now + timedelta(days=1)),
        (made[0].pk, "a", now - timedelta(days=1)),  # none
        (made[4].pk, "b", now + timedelta(days=1)),
    ]
    expected = [USERS.first(*call) for call in calls]
    with django_assert_num_queries(1):
        found = USERS.first_for_each(calls)
    assert found == expected and found[2] is None
    assert [u.username for u in found if u] == [u.username for u in expected if u]
