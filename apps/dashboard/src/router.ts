/** Moves to another screen (the hash route; the server never sees it, so the tokens of password links stay private). */
export function go(path: string): void {
  location.hash = `#${path}`;
}
