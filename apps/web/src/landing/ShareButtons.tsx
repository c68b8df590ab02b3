/**
 * The community link and the share buttons (a share opens a prefilled social post). Each
 * opens in a new tab, without giving that tab a handle on ours (noopener) or our address (noreferrer).
 */
import { LINKS } from '../config/links.ts';
import { SHARE_TEXT, shareTargets } from '../config/site-links.ts';
import { LandingIcon } from './icons.tsx';
import { SMALL_BUTTON } from './styles.ts';

const external = { target: '_blank', rel: 'noopener noreferrer' } as const;

export function CommunityLink({ className = SMALL_BUTTON }: { className?: string }) {
  return (
    <a href={LINKS.community} {...external} className={className}>
      <LandingIcon name="users" className="size-4" />
      Join the Community
    </a>
  );
}

/** Share on X and on Telegram, with `text` and a link to this site. */
export function ShareButtons({ text = SHARE_TEXT }: { text?: string }) {
  const targets = shareTargets(text, `${window.location.origin}/`);
  return (
    <>
      <a href={targets.x} {...external} className={SMALL_BUTTON}>
        <LandingIcon name="share" className="size-4" />
        Share on X
      </a>
      <a href={targets.telegram} {...external} className={SMALL_BUTTON}>
        <LandingIcon name="send" className="size-4" />
        Share on Telegram
      </a>
    </>
  );
}
