// @ts-check
// The header: the rules engine's own line for the turn ("Turn 2 · Phase 1 · P1 to act ·
// 3 AP left"), sent with the snapshot and every table event, and whether it is yours.
export function turnText(store) {
  const t = store.turn ?? {};
  if (store.status && store.status !== "active") return `The battle is ${store.status}.`;
  const line = summaryText(store) || `Turn ${t.turn ?? "?"}: ${t.active_side ?? "?"} to act`;
  const yours = store.me.sides.includes(t.active_side) ? " · your turn" : "";
  return `${line}${yours}`;
}

/** The engine's turn line with the units it names by id called by their names ("U1: 12"
 *  left" reads "Grav tank: 12" left"); "" without one. */
export function summaryText(store) {
  return (store.summary ?? "").replace(/[\w-]+/g, (word) => store.name(word));
}
