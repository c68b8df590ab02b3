/**
 * The prize section: its heading here; the current tournament from a panel that loads as the
 * section comes near the screen. The panel needs the HTTP client and with it the protocol's
 * schemas (about 40 KB gzip), which a visitor who never scrolls this far need not download.
 */
import { type RefObject, Suspense, lazy, useEffect, useRef, useState } from 'react';
import { PrizeSkeleton } from './PrizeSkeleton.tsx';
import { SectionHeading } from './SectionHeading.tsx';
import { CONTAINER } from './styles.ts';

const PrizePanel = lazy(async () => ({ default: (await import('./PrizePanel.tsx')).PrizePanel }));

/** How far below the screen the section may still be when its panel starts loading. */
const PRELOAD_MARGIN = '800px 0px';

/** True once the element has come within PRELOAD_MARGIN of the screen (at once without IntersectionObserver). */
function useNearScreen<T extends Element>(): [RefObject<T | null>, boolean] {
  const ref = useRef<T>(null);
  const [near, setNear] = useState(() => typeof IntersectionObserver === 'undefined');
  useEffect(() => {
    const element = ref.current;
    if (near || !element) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) setNear(true);
      },
      { rootMargin: PRELOAD_MARGIN },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [near]);
  return [ref, near];
}

export function PrizeSection() {
  const [ref, near] = useNearScreen<HTMLElement>();
  return (
    <section ref={ref} aria-labelledby="prizes-title" className={`${CONTAINER} py-16 md:py-20`}>
      <SectionHeading id="prizes-title" eyebrow="Tournaments" title="Play for the prize pool">
        Join a tournament, play its games inside the window and finish among the winners: prizes are credited to your
        wallet when it ends.
      </SectionHeading>
      <div className="mt-10 overflow-hidden rounded-2xl border border-gold/40 bg-[linear-gradient(135deg,rgb(245_158_11/0.10),transparent_45%),linear-gradient(var(--color-panel),var(--color-panel))]">
        <Suspense fallback={<PrizeSkeleton />}>{near ? <PrizePanel /> : <PrizeSkeleton />}</Suspense>
      </div>
    </section>
  );
}
