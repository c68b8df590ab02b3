/**
 * The public front page: hero with rotating sample cards, the
 * signed-in welcome or the ways in, community and share buttons, the game in numbers, six features, three
 * steps, the current tournament's prizes, the token launch and a closing call to action.
 * It is the one page in the first script, so its sections take no heavy dependency; the prize
 * panel, which needs the HTTP client, loads after first paint.
 */
import { Features } from '../landing/Features.tsx';
import { FinalCta, LandingFooter } from '../landing/FinalCta.tsx';
import { Hero } from '../landing/Hero.tsx';
import { PrizeSection } from '../landing/PrizeSection.tsx';
import { Stats } from '../landing/Stats.tsx';
import { Steps } from '../landing/Steps.tsx';
import { TokenSection } from '../landing/TokenSection.tsx';

export function Landing() {
  return (
    <>
      <main>
        <Hero />
        <Stats />
        <Features />
        <Steps />
        <PrizeSection />
        <TokenSection />
        <FinalCta />
      </main>
      <LandingFooter />
    </>
  );
}
