// A live region (role="status") says one thing per change. While the engine works, what it
// shows ("Calculating…") is marked busy, so a screen reader waits and announces only the answer.

export function announce(region, fill, { busy = false } = {}) {
  if (busy) region.setAttribute("aria-busy", "true");
  fill(region);
  if (!busy) region.removeAttribute("aria-busy");
}
