/** The admin audit on the statistics tab: every admin action, newest first, a page at a time. */
import { ADMIN_ACTION_LABELS, ADMIN_AUDIT_PAGE_SIZE, type AdminAuditEntry } from '@memeslam/protocol';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../api/http.ts';
import { Button } from '../components/Field.tsx';

/** What an entry acted on, in words: the tournament's name, the account and its roles, or the id. */
function auditTarget(entry: AdminAuditEntry): string {
  const { details } = entry;
  if (entry.action === 'user.role' && typeof details.username === 'string') {
    return `${details.username} (${String(details.from)} → ${String(details.to)})`;
  }
  if (typeof details.name === 'string') return details.name;
  if (entry.action === 'tournament.payout' && Array.isArray(details.winners)) {
    const winners = details.winners.length;
    return `${entry.targetId ?? ''} (${winners} ${winners === 1 ? 'winner' : 'winners'})`;
  }
  return entry.targetId ?? '—';
}

export function AuditLog() {
  const [page, setPage] = useState(1);
  const audit = useQuery({
    queryKey: ['admin', 'audit', page],
    queryFn: async () => (await api('adminAudit', { query: { page, limit: ADMIN_AUDIT_PAGE_SIZE } })).data,
  });
  const pages = audit.data ? Math.max(1, Math.ceil(audit.data.total / audit.data.limit)) : 1;
  return (
    <section aria-labelledby="admin-audit-title" className="mt-10">
      <h2 id="admin-audit-title" className="text-xl font-semibold">
        Admin audit
      </h2>
      <p className="text-sm text-muted">Every tournament created or paid out and every role change, newest first.</p>
      {audit.isPending ? (
        <p role="status">Loading the audit…</p>
      ) : !audit.data || audit.data.entries.length === 0 ? (
        <p className="mt-2 text-muted">No admin actions yet.</p>
      ) : (
        <>
          {/* On a phone the table scrolls sideways: the region takes focus so a keyboard can scroll it. */}
          <div className="mt-3 overflow-x-auto" role="region" aria-labelledby="admin-audit-title" tabIndex={0}>
            <table className="w-full text-left text-sm">
              <thead className="text-muted">
                <tr>
                  <th scope="col" className="py-1 pr-4 font-normal">
                    When
                  </th>
                  <th scope="col" className="py-1 pr-4 font-normal">
                    Who
                  </th>
                  <th scope="col" className="py-1 pr-4 font-normal">
                    Action
                  </th>
                  <th scope="col" className="py-1 font-normal">
                    Target
                  </th>
                </tr>
              </thead>
              <tbody>
                {audit.data.entries.map((entry) => (
                  <tr key={entry.id} className="border-t border-edge">
                    <td className="py-1 pr-4 whitespace-nowrap">
                      <time dateTime={entry.createdAt}>{new Date(entry.createdAt).toLocaleString()}</time>
                    </td>
                    <td className="py-1 pr-4">{entry.actorName}</td>
                    <td className="py-1 pr-4">{ADMIN_ACTION_LABELS[entry.action]}</td>
                    <td className="py-1 break-all">{auditTarget(entry)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {pages > 1 && (
            <nav aria-label="Audit pages" className="mt-3 flex items-center gap-3 text-sm">
              <Button type="button" disabled={page <= 1} onClick={() => setPage(page - 1)}>
                Newer
              </Button>
              <span>
                Page {page} of {pages}
              </span>
              <Button type="button" disabled={page >= pages} onClick={() => setPage(page + 1)}>
                Older
              </Button>
            </nav>
          )}
        </>
      )}
    </section>
  );
}
