/** TEMPORARY: replaced by its owner. */
export function Lobby() {
  return null;
}
