/** TEMPORARY: replaced by its owner. */
export function GamePage() {
  return null;
}
