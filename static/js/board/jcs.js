// @ts-check
// The position hash (docs/protocol.md, snapshot `hash`): sha256 of the JSON
// Canonicalization Scheme (RFC 8785) of {"state", "turn"}, state.units sorted by id.
// JCS is defined by ECMAScript itself: numbers as Number.prototype.toString writes them
// (JSON.stringify does the same: 10, 0.00001, 1e+21), strings as JSON.stringify escapes
// them, object keys sorted by UTF-16 code units (the default sort of strings), UTF-8
// bytes. tabletop/services/table/position.py is the server's side of the same rule.

/** The JCS text of a JSON value. */
export function canonicalize(value) {
  if (value === null || typeof value !== "object") {
    if (typeof value === "number" && !Number.isFinite(value)) throw new RangeError("JCS: not a finite number");
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map(canonicalize).join(",")}]`;
  const keys = Object.keys(value)
    .filter((key) => value[key] !== undefined)
    .sort();
  return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalize(value[key])}`).join(",")}}`;
}

/** The canonical text a position's hash is taken of. */
export function hashedForm(state, turn) {
  const units = [...(state.units ?? [])].sort((a, b) => {
    const x = String(a.id);
    const y = String(b.id);
    return x < y ? -1 : x > y ? 1 : 0;
  });
  return canonicalize({ state: { ...state, units }, turn });
}

/** sha256 (hex) of a text's UTF-8 bytes; null where the page cannot hash (Web Crypto
 * exists only in secure contexts: https, or localhost). */
export async function sha256Hex(text) {
  if (!globalThis.crypto?.subtle) return null;
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** The position hash, as the server computes it; null where the page cannot hash. */
export function positionHash(state, turn) {
  return sha256Hex(hashedForm(state, turn));
}
