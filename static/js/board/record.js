// @ts-check
// Saving the battle's record from the board (docs/protocol.md, "The record"): the position
// shown, or the ruling on a refused order, as a scenario file the rules engine reads
// (`python -m rules check --expect FILE`). The server builds both files; the board only
// names the moment (an event number) or the refused order (its id and the action it sent).
import { item } from "./panels/util.js";

let lastRuling = null; // {id, action}: the last order of ours the rules refused

/** Fetches a record file and hands it to the browser as a download; a refusal is a toast. */
export async function download(url, toasts) {
  let response;
  try {
    response = await fetch(url, { credentials: "same-origin" });
  } catch (error) {
    toasts.show("Could not save the file", [String(error.message ?? error)], "error");
    return;
  }
  if (!response.ok) {
    const body = await response.json().catch(() => ({}));
    toasts.show("Could not save the file", [body.error ?? `The server answered ${response.status}.`], "error");
    return;
  }
  const disposition = response.headers.get("Content-Disposition") ?? "";
  const name = /filename="([^"]+)"/.exec(disposition)?.[1] ?? "scenario.json";
  const link = document.createElement("a");
  link.href = URL.createObjectURL(await response.blob());
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 60000);
}

function rulingUrl(base, ruling) {
  const url = new URL(base, location.href);
  url.searchParams.set("reply", ruling.id);
  url.searchParams.set("action", JSON.stringify(ruling.action));
  return url.href;
}

/** A refusal by the rules (the reject carries the engine's verdict): offer its ruling,
 *  in the refusal's toast and in the tool bar until the next one. */
export function offerRuling(board, box, id, action) {
  const button = document.getElementById("save-ruling");
  if (!button || !action) return;
  lastRuling = { id, action };
  button.hidden = false;
  const again = item("button", "toast-action", "Save this ruling");
  again.type = "button";
  const ruling = lastRuling;
  again.addEventListener("click", () => download(rulingUrl(button.dataset.url, ruling), board.toasts));
  box?.append(again);
}

/** The position shown (the replayed moment, or the table now), as a scenario file. */
export function savePosition(board) {
  const button = document.getElementById("save-position");
  const seq = board.replay.seq ?? board.store.seq;
  const url = new URL(button.dataset.url, location.href);
  if (seq >= 0) url.searchParams.set("seq", String(seq));
  download(url.href, board.toasts);
}

/** The last refused order's ruling, as a scenario file. */
export function saveRuling(board) {
  const button = document.getElementById("save-ruling");
  if (lastRuling) download(rulingUrl(button.dataset.url, lastRuling), board.toasts);
}
