// @ts-check
// A map's picture under the terrain: the map editor and the board draw it.
//
//   drawBackdrop(svg, table, { url, x, y, width, height })   (inches; null: no picture)
//
// The picture is loaded from its own address (the server's re-encoding, same origin:
// CSP img-src 'self'), never inlined into the page. It lies just above the table's
// surface and under everything else; while there is one, the svg has the class
// `has-backdrop`, which lets the terrain's fill show the picture through (site.css).
import { el } from "./terrain.js";

export function drawBackdrop(svg, table, backdrop) {
  table.querySelector("image.backdrop")?.remove();
  svg.classList.toggle("has-backdrop", Boolean(backdrop));
  if (!backdrop) return null;
  const { x, y, width, height } = backdrop;
  // The table group is flipped (y grows north); the picture is flipped back so that it
  // reads upright: drawn from -(y + height) and mirrored, its top edge lies at y + height.
  const image = el("image", {
    class: "backdrop",
    href: backdrop.url,
    x,
    y: -(y + height),
    width,
    height,
    transform: "scale(1 -1)",
    preserveAspectRatio: "none",
    "pointer-events": "none",
    "aria-hidden": "true",
  });
  const surface = table.querySelector(".table-surface");
  if (surface) surface.after(image);
  else table.prepend(image);
  return image;
}
