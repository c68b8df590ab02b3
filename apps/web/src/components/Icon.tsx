/**
 * Small line icons drawn in SVG, so they look the same on every system (emoji fonts are not
 * everywhere, and an emoji is read out by its Unicode name). Decorative (aria-hidden): the text or
 * the button beside one carries the meaning.
 */
const PATHS = {
  bomb: 'M11 8a7 7 0 1 0 .01 0M15 6l3-3M18 3l2 1M19 7l2-1',
  reversal: 'M4 9h13l-3-3M20 15H7l3 3',
  freeze: 'M12 2v20M3.3 7l17.4 10M3.3 17 20.7 7M9 4l3 2 3-2M9 20l3-2 3 2',
  whirlwind: 'M3 7h12a3 3 0 1 0-3-3M3 12h16a3 3 0 1 1-3 3M3 17h8',
  sniper: 'M12 4a8 8 0 1 0 .01 0M12 1v6M12 17v6M1 12h6M17 12h6',
  soundOn: 'M4 9h4l5-4v14l-5-4H4zM16 9a4 4 0 0 1 0 6M19 6a8 8 0 0 1 0 12',
  soundOff: 'M4 9h4l5-4v14l-5-4H4zM17 9l5 6M22 9l-5 6',
  settings: 'M12 9a3 3 0 1 0 .01 0M12 2v3M12 19v3M2 12h3M19 12h3M4.9 4.9 7 7M17 17l2.1 2.1M4.9 19.1 7 17M17 7l2.1-2.1',
  back: 'M19 12H5M11 6l-6 6 6 6',
  menu: 'M4 6h16M4 12h16M4 18h16',
  snowflake: 'M12 3v18M4.2 7.5l15.6 9M4.2 16.5l15.6-9',
  check: 'M5 12.5l4.5 4.5L19 7.5',
  cross: 'M6 6l12 12M18 6 6 18',
  lock: 'M8 11V8a4 4 0 0 1 8 0v3M6 11h12v10H6z',
  robot: 'M5 8h14v11H5zM12 4.5V8M9 12.5h.01M15 12.5h.01M9 16h6M2.5 12v3M21.5 12v3M12 2.5a1 1 0 1 0 .01 0',
  trendUp: 'M3 17l6-6 4 4 8-8M15 7h6v6',
} as const;

export type IconName = keyof typeof PATHS;

export function Icon({ name, className = 'size-5' }: { name: IconName; className?: string }) {
  return (
    <svg
      viewBox="0 0 24 24"
      className={className}
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
    >
      <path d={PATHS[name]} />
    </svg>
  );
}
