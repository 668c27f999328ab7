// @ts-check
// A side's colour, from the one definition in static/css/sides.css (--side-1, --side-2, …):
// the side's place among the battle's side names in code-point order, as the report counts.

let palette = null;

function colours() {
  if (palette) return palette;
  const style = getComputedStyle(document.documentElement);
  palette = [];
  for (let i = 1; ; i += 1) {
    const value = style.getPropertyValue(`--side-${i}`).trim();
    if (!value) break;
    palette.push(value);
  }
  if (!palette.length) palette = ["#0a5fb4"]; // the stylesheet missing: still one readable colour
  return palette;
}

/** The colour of `side` among `sides` (any order; a side not among them is counted in). */
export function sideColour(sides, side) {
  const names = [...new Set([...sides, side])].sort();
  const all = colours();
  return all[names.indexOf(side) % all.length];
}
