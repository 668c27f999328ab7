// The header: turn and phase, whose turn it is, and the orders the side has left.
export function turnText(store) {
  const t = store.turn ?? {};
  if (store.status && store.status !== "active") return `The battle is ${store.status}.`;
  const engine = store.state?.state ?? {};
  const phase = t.phase != null ? `, phase ${t.phase}` : engine.phase != null ? `, phase ${engine.phase}` : "";
  let left = "";
  if (engine.orders_available != null) {
    const n = Math.max(0, engine.orders_available - (engine.orders_used ?? 0));
    left = ` (${n} order${n === 1 ? "" : "s"} left)`;
  }
  const yours = store.me.sides.includes(t.active_side) ? " · your turn" : "";
  return `Turn ${t.turn ?? "?"}${phase}: ${t.active_side ?? "?"} to act${left}${yours}`;
}
