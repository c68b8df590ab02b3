/** Tiles to Profile Settings, Leaderboard and How to Play; Bot Training only says it is coming. */
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { Icon } from '../components/Icon.tsx';
import { DASHBOARD_UI } from './texts.ts';

const tileClass =
  'flex h-full flex-col gap-1 rounded-xl border border-edge bg-panel p-4 text-left transition hover:border-brand hover:bg-brand/10';

function TileBody({ icon, title, text }: { icon: ReactNode; title: string; text: string }) {
  return (
    <>
      <span className="text-gold">{icon}</span>
      <span className="font-semibold">{title}</span>
      <span className="text-sm text-muted">{text}</span>
    </>
  );
}

export function QuickLinks() {
  return (
    <nav aria-label="Quick links">
      <ul className="grid grid-cols-2 gap-3 md:grid-cols-4 lg:grid-cols-2">
        <li>
          <Link to="/profile" className={tileClass}>
            <TileBody
              icon={<Icon name="settings" className="h-6 w-6" light />}
              title="Profile Settings"
              text="Username and preferences"
            />
          </Link>
        </li>
        <li>
          <Link to="/leaderboard" className={tileClass}>
            <TileBody
              icon={<Icon name="trophy" className="h-6 w-6" light />}
              title="Leaderboard"
              text="Rankings and tournament"
            />
          </Link>
        </li>
        <li>
          <Link to="/how-to-play" className={tileClass}>
            <TileBody
              icon={<Icon name="book" className="h-6 w-6" light />}
              title="How to Play"
              text="Rules and power-ups"
            />
          </Link>
        </li>
        <li>
          <button
            type="button"
            className={`${tileClass} w-full`}
            onClick={() => toast.info(DASHBOARD_UI.botTrainingComingSoon)}
          >
            <TileBody icon={<Icon name="robot" className="h-6 w-6" light />} title="Bot Training" text="Coming soon" />
          </button>
        </li>
      </ul>
    </nav>
  );
}
