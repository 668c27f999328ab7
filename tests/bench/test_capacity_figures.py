"""The capacity bench's figures (bench/capacity.py, docs/benchmarks.md "Capacity"): the
ramp's capacity, memory per socket, the client processes' shares of the tables and the
percentiles. Pure functions; nothing here times anything."""

from bench.capacity import (
    client_groups,
    distribution,
    largest_within,
    per_move,
    per_socket_kb,
)


def row(tables: int, act_p99_ms: float | None, errors: int = 0) -> dict:
    return {"tables": tables, "act_p99_ms": act_p99_ms, "errors": errors}


def test_capacity_is_the_last_table_count_within_the_limit_before_the_first_over_it():
    rows = [row(50, 40.0), row(100, 100.0), row(200, 180.0), row(300, 90.0)]
    # 300 came back under the limit after 200 went over: the ramp's capacity stays 100.
    assert largest_within(rows, 100.0) == 100


def test_a_step_with_an_error_or_no_move_is_over_the_limit():
    assert largest_within([row(50, 40.0), row(100, 60.0, errors=1)], 100.0) == 50
    assert largest_within([row(50, 40.0), row(100, None)], 100.0) == 50
    assert largest_within([row(50, 101.0)], 100.0) is None


def test_memory_per_socket_is_the_rss_the_second_sockets_added():
    # 1,000 kB with 10 sockets open, 1,600 kB with 30: 600 kB for 20 sockets.
    assert per_socket_kb((1000, 1600), (10, 30)) == 30.0
    assert per_socket_kb((1000, 1600), (10, 10)) is None


def test_client_processes_share_the_tables_evenly_and_each_once():
    groups = client_groups(10, 4)
    assert [len(g) for g in groups] == [4, 3, 3]
    assert [t for g in groups for t in g] == list(range(10))
    assert [len(g) for g in client_groups(500, 50)] == [50] * 10
    assert [list(g) for g in client_groups(3, 50)] == [[0, 1, 2]]


def test_distribution_is_p50_and_p99_in_milliseconds():
    seconds = [i / 1000 for i in range(1, 101)]  # 1 ms to 100 ms
    assert distribution(seconds) == (50.5, 99.0)
    assert distribution([]) == (None, None)


def test_per_move_is_milliseconds_per_move():
    assert per_move(1.5, 300) == 5.0
    assert per_move(1.5, 0) is None
