/**
 * /terms and /privacy: short, plain pages that say what the service is and what it keeps — only what
 * the code does (accounts, games, an optional wallet address, e-mail for sign-up and resets).
 */
import type { ReactNode } from 'react';
import { Link } from 'react-router';

function Page({ title, children }: { title: string; children: ReactNode }) {
  return (
    <main className="mx-auto max-w-2xl space-y-4 px-4 py-10 leading-relaxed">
      <h1 className="text-3xl font-bold">{title}</h1>
      {children}
      <p className="text-sm text-muted">
        See also the{' '}
        <Link to={title === 'Terms of service' ? '/privacy' : '/terms'} className="underline">
          {title === 'Terms of service' ? 'privacy policy' : 'terms of service'}
        </Link>
        .
      </p>
    </main>
  );
}

export function Terms() {
  return (
    <Page title="Terms of service">
      <p>
        MemeSlam is a free card game played in the browser. By creating an account or playing as a guest you agree to
        play fairly: one person per account, no automated play presented as a person, no attempts to break or overload
        the service, and no abusive names.
      </p>
      <p>
        An account that breaks these rules may be closed. Tournament prizes are paid as the tournament&apos;s page
        states, to the winning account&apos;s in-game wallet, for games that count under its rules.
      </p>
      <p>
        The game is offered as it is, without a promise that it is always available. You can stop at any time: the
        profile page deletes your account.
      </p>
    </Page>
  );
}

export function Privacy() {
  return (
    <Page title="Privacy policy">
      <p>
        What we keep: your username, your e-mail address (to verify it and to send password resets, nothing else), your
        password as an argon2id hash (never the password itself), the games you play (moves, results and stats, for
        history, replays and leaderboards), and, if you link one, your Solana wallet address. A guest account has no
        e-mail address of its own.
      </p>
      <p>
        Your session is kept in this browser&apos;s storage so that you stay signed in; we set no tracking or
        advertising cookies and sell nothing to anyone.
      </p>
      <p>
        Your profile page exports everything kept about you, and deletes your account: your games stay in other
        players&apos; histories under an anonymous name.
      </p>
    </Page>
  );
}
