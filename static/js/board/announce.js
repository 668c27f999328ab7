// @ts-check
// What a screen reader hears: two live regions that are on the page from its load (a
// region made with its text is often not read). Polite for the log, the toasts and the
// referee's verdict on a plan; assertive for refusals. Each message is a line appended,
// the last few kept, so that two said in one moment are both read (the log pattern).
const KEPT = 4;

export class Announcer {
  constructor(polite, urgent) {
    this.regions = { polite, urgent };
  }

  /** Says `text` (urgent: interrupting, for a refusal). Empty text says nothing. */
  say(text, urgent = false) {
    const line = String(text ?? "").replace(/\s+/g, " ").trim();
    if (!line) return;
    const region = urgent ? this.regions.urgent : this.regions.polite;
    const p = document.createElement("p");
    p.textContent = line;
    region.append(p);
    while (region.children.length > KEPT) region.firstChild.remove();
  }
}

/** A node's words as read aloud: its text without its buttons' (a toast's "×"). */
export function spokenText(node) {
  const copy = node.cloneNode(true);
  for (const button of copy.querySelectorAll("button")) button.remove();
  for (const small of copy.querySelectorAll("small.rule")) small.textContent = ` (${small.textContent})`;
  return copy.textContent;
}
