/** The breakpoints: mobile under 768 px, tablet 768–1023, desktop 1024 and over. */
import { BREAKPOINTS } from '@memeslam/protocol/constants';
import { useSyncExternalStore } from 'react';

export type Viewport = 'mobile' | 'tablet' | 'desktop';

const TABLET = `(min-width: ${BREAKPOINTS.tablet}px)`;
const DESKTOP = `(min-width: ${BREAKPOINTS.desktop}px)`;

function current(): Viewport {
  if (window.matchMedia(DESKTOP).matches) return 'desktop';
  return window.matchMedia(TABLET).matches ? 'tablet' : 'mobile';
}

function subscribe(listener: () => void): () => void {
  const queries = [window.matchMedia(TABLET), window.matchMedia(DESKTOP)];
  for (const query of queries) query.addEventListener('change', listener);
  return () => {
    for (const query of queries) query.removeEventListener('change', listener);
  };
}

export function useViewport(): Viewport {
  return useSyncExternalStore(subscribe, current);
}
