/**
 * "Servers are busy — you are in line" and the wait so far, while a request refused with 503 and
 * Retry-After is asked again (api/busy.ts): sign-in, registration, guests, game creation. The line is
 * announced once (a status); the seconds count on screen without being read out each second.
 */
import { SERVER_TEXTS, busyWaitText } from '@memeslam/protocol/texts';
import { useEffect, useState } from 'react';

export function BusyLine({ since }: { since: number }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return (
    <div className="rounded-lg border border-yellow-500 bg-yellow-500/10 px-4 py-3 text-sm" data-testid="busy-line">
      <p role="status" className="font-semibold text-yellow-300">
        {SERVER_TEXTS.inLine}
      </p>
      <p className="mt-1 text-muted">{busyWaitText(Math.max(0, Math.floor((now - since) / 1000)))}</p>
    </div>
  );
}
