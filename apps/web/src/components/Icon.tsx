/**
 * The app's line icons, every one drawn in SVG here (the game, the lobby, the dashboard, the landing
 * page), so they look the same on every system (emoji fonts are not everywhere, and an emoji is read
 * out by its Unicode name). Decorative (aria-hidden): the text or the button beside one carries the
 * meaning.
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
  book: 'M4 5a2 2 0 0 1 2-2h13v16H6a2 2 0 0 0-2 2V5ZM4 19a2 2 0 0 1 2-2h13M9 7h6M9 11h4',
  refresh: 'M20 11a8 8 0 1 0-2.3 5.7M20 4v7h-7',
  bolt: 'M13 2 4 14h7l-1 8 9-12h-7l1-8Z',
  spark: 'M12 3v4M12 17v4M3 12h4M17 12h4M5.6 5.6l2.8 2.8M15.6 15.6l2.8 2.8M5.6 18.4l2.8-2.8M15.6 8.4l2.8-2.8',
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

export type IconName = keyof typeof PATHS;

/** `light`: the thinner stroke of the larger icons on the landing page and the dashboard's tiles. */
export function Icon({
  name,
  className = 'size-5',
  light = false,
}: {
  name: IconName;
  className?: string;
  light?: boolean;
}) {
  return (
    <svg
      viewBox="0 0 24 24"
      className={className}
      fill="none"
      stroke="currentColor"
      strokeWidth={light ? 1.8 : 2}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
    >
      <path d={PATHS[name]} />
    </svg>
  );
}
