/** TEMPORARY: replaced by its owner. */
export function Replay() {
  return null;
}
