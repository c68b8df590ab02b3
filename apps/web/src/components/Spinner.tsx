/** The spinner the guards show while the sign-in state is not known yet. */
export function Spinner({ label = 'Loading' }: { label?: string }) {
  return (
    <div role="status" aria-live="polite" className="flex min-h-[40vh] items-center justify-center">
      <span
        className="h-10 w-10 motion-safe:animate-spin rounded-full border-4 border-edge border-t-brand"
        aria-hidden="true"
      />
      <span className="sr-only">{label}</span>
    </div>
  );
}
