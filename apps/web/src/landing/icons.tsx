/** The landing page's line icons, drawn in code like the rest of the app's. Decorative only. */
import type { ReactElement } from 'react';

const PATHS = {
  bolt: 'M13 2 4 14h7l-1 8 9-12h-7l1-8Z',
  spark: 'M12 3v4M12 17v4M3 12h4M17 12h4M5.6 5.6l2.8 2.8M15.6 15.6l2.8 2.8M5.6 18.4l2.8-2.8M15.6 8.4l2.8-2.8',
  robot: 'M6 8h12a2 2 0 0 1 2 2v7a2 2 0 0 1-2 2H6a2 2 0 0 1-2-2v-7a2 2 0 0 1 2-2ZM12 4v4M9 13h.01M15 13h.01M9.5 16h5',
  users: 'M9 11a4 4 0 1 0 0-8 4 4 0 0 0 0 8ZM2 21a7 7 0 0 1 14 0M16 3.5a4 4 0 0 1 0 7.5M18 14a6 6 0 0 1 4 7',
  trophy: 'M8 4h8v5a4 4 0 0 1-8 0V4ZM8 6H5a3 3 0 0 0 3 4M16 6h3a3 3 0 0 1-3 4M12 13v4M8 20h8M10 17h4',
  shield: 'M12 3 4 6v6c0 4.5 3.4 8.3 8 9 4.6-.7 8-4.5 8-9V6l-8-3ZM8.5 12l2.5 2.5 4.5-5',
  share:
    'M18 8a3 3 0 1 0 0-6 3 3 0 0 0 0 6ZM6 15a3 3 0 1 0 0-6 3 3 0 0 0 0 6ZM18 22a3 3 0 1 0 0-6 3 3 0 0 0 0 6ZM8.6 13.5l6.8 4M15.4 6.5l-6.8 4',
  send: 'M22 2 11 13M22 2l-7 20-4-9-9-4 20-7Z',
  flame: 'M12 22a7 7 0 0 0 7-7c0-4-3-6-4-10-2 2-3 4-3 6-1-1-2-2-2-4-2 2-5 5-5 8a7 7 0 0 0 7 7Z',
  key: 'M15 9a4 4 0 1 0-3.9 4.9L4 21h3v-2h2v-2h2l1.1-1.1A4 4 0 0 0 15 9ZM16 8h.01',
  percent: 'M19 5 5 19M7 9a2 2 0 1 0 0-4 2 2 0 0 0 0 4ZM17 19a2 2 0 1 0 0-4 2 2 0 0 0 0 4Z',
  contract: 'M6 2h9l5 5v15H6V2ZM14 2v6h6M9 13h8M9 17h6',
  pause: 'M8 5v14M16 5v14',
  play: 'M7 4l13 8-13 8V4Z',
  arrow: 'M5 12h14M13 6l6 6-6 6',
  chart: 'M3 3v18h18M7 15l4-4 3 3 5-6',
} as const;

export type LandingIconName = keyof typeof PATHS;

export function LandingIcon({
  name,
  className = 'size-6',
}: {
  name: LandingIconName;
  className?: string;
}): ReactElement {
  return (
    <svg
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.8}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      className={className}
    >
      <path d={PATHS[name]} />
    </svg>
  );
}
