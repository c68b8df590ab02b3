/** What the prize panel shows while its code or its data loads. */
export function PrizeSkeleton() {
  return (
    <div
      role="status"
      aria-label="Loading tournament"
      className="grid animate-pulse gap-4 p-5 motion-reduce:animate-none md:p-8"
    >
      <div className="h-5 w-24 rounded bg-edge" />
      <div className="h-8 w-2/3 rounded bg-edge" />
      <div className="h-12 w-1/2 rounded bg-edge" />
    </div>
  );
}
