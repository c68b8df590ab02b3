/** TEMPORARY: replaced by its owner. */
export function WaitingRoom() {
  return null;
}
