// @ts-check
// DOM helpers for the panels: every piece of text goes in as textContent.
export function item(tag, cls, content) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (content !== undefined) node.textContent = content;
  return node;
}

/** A button for a catalogue action: its label, its help as the tooltip. */
export function actionButton(spec, onClick) {
  const button = item("button", "", spec.label);
  button.type = "button";
  button.dataset.action = spec.type;
  if (spec.help) button.title = spec.help;
  button.addEventListener("click", onClick);
  return button;
}

/** Appends to a scrolling list, keeping the view at the bottom if it was there. */
export function appendKeepingScroll(list, node, max = 300) {
  const atBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 24;
  list.append(node);
  while (list.children.length > max) list.firstChild.remove();
  if (atBottom) list.scrollTop = list.scrollHeight;
}

export function clock(iso) {
  const at = iso ? new Date(iso) : null;
  return at && !Number.isNaN(at.getTime()) ? at.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" }) : "";
}

/** Keys a box that shows one thing at a time (a roll or a take-back waiting): whether it
 *  must be drawn for `key`; an empty key hides and empties it, the same key keeps it. */
export function rekey(box, key) {
  if (box.dataset.key === key) return false;
  box.dataset.key = key;
  box.hidden = !key;
  if (!key) box.replaceChildren();
  return Boolean(key);
}
