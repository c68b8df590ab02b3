/**
 * /admin: access states (sign-in, admin access, superadmin), then three tabs — the Create Tournament
 * form with its validation, winners-count clamp and prize split, Manage Tournaments, and Statistics.
 */
import * as Tabs from '@radix-ui/react-tabs';
import {
  ADMIN_TEXTS,
  SCORING_METHODS,
  TOURNAMENT_TEXTS,
  USER_ROLES,
  WINNERS_COUNT,
  clampWinnersCount,
  createTournamentSchema,
  parseWith,
  prizeDistributionFor,
} from '@memeslam/protocol';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { Navigate } from 'react-router';
import { toast } from 'sonner';
import { ApiError, api } from '../api/http.ts';
import { useSession } from '../auth/session.ts';
import { Button, Field } from '../components/Field.tsx';

interface Form {
  name: string;
  description: string;
  startDate: string;
  endDate: string;
  maxParticipants: string;
  minGamesRequired: string;
  scoringMethod: (typeof SCORING_METHODS)[number];
  allowBots: boolean;
  requireVerifiedSolana: boolean;
  isFeatured: boolean;
  currency: 'SLAM' | 'SOL';
  totalAmount: string;
  winnersCount: number;
}

const EMPTY: Form = {
  name: '',
  description: '',
  startDate: '',
  endDate: '',
  maxParticipants: '',
  minGamesRequired: '1',
  scoringMethod: 'totalPoints',
  allowBots: false,
  requireVerifiedSolana: false,
  isFeatured: false,
  currency: 'SLAM',
  totalAmount: '',
  winnersCount: WINNERS_COUNT.default,
};

export function Admin() {
  const { user } = useSession();
  const [tab, setTab] = useState('create');
  useEffect(() => {
    // One toast however often the user object refreshes.
    if (user && !user.canAccessAdmin) toast.error(ADMIN_TEXTS.adminAccessRequired, { id: 'admin-access' });
    else if (user && user.role !== 'superadmin') toast.error(ADMIN_TEXTS.superadminRequired, { id: 'admin-access' });
  }, [user]);
  if (!user) return null;
  if (!user.canAccessAdmin || user.role !== 'superadmin') {
    return (
      <>
        <main className="mx-auto max-w-xl px-4 py-16 text-center">
          <h1 className="text-3xl font-bold">{ADMIN_TEXTS.accessDenied}</h1>
          <p className="mt-2 text-muted">{ADMIN_TEXTS.noPermission}</p>
        </main>
        <Navigate to="/dashboard" replace />
      </>
    );
  }
  return (
    <main className="mx-auto max-w-5xl px-4 py-10">
      <h1 className="text-4xl font-bold">Admin</h1>
      <p className="mt-1">
        Welcome, {user.username}{' '}
        <span className="ml-2 rounded bg-gold px-2 text-xs font-bold text-ink">Superadmin</span>
      </p>
      <Tabs.Root value={tab} onValueChange={setTab} className="mt-6">
        <Tabs.List aria-label="Admin" className="mb-6 flex gap-1 border-b border-edge">
          {[
            ['create', 'Create Tournament'],
            ['manage', 'Manage Tournaments'],
            ['stats', 'Statistics'],
          ].map(([value, label]) => (
            <Tabs.Trigger
              key={value}
              value={value as string}
              className="px-4 py-2 text-sm text-muted data-[state=active]:border-b-2 data-[state=active]:border-gold data-[state=active]:text-white"
            >
              {label}
            </Tabs.Trigger>
          ))}
        </Tabs.List>
        <Tabs.Content value="create">
          <CreateTournament onCreated={() => setTab('manage')} />
        </Tabs.Content>
        <Tabs.Content value="manage">
          <p className="text-muted">{TOURNAMENT_TEXTS.managementComingSoon}</p>
        </Tabs.Content>
        <Tabs.Content value="stats">
          <Statistics />
        </Tabs.Content>
      </Tabs.Root>
    </main>
  );
}

function CreateTournament({ onCreated }: { onCreated: () => void }) {
  const queryClient = useQueryClient();
  const [form, setForm] = useState<Form>(EMPTY);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const total = Number(form.totalAmount);
  const distribution = prizeDistributionFor(Number.isFinite(total) && total > 0 ? total : 0, form.winnersCount);
  const set = <K extends keyof Form>(key: K, value: Form[K]) => {
    setForm((f) => ({ ...f, [key]: value }));
    setErrors((e) => ({ ...e, [key]: '' }));
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    // datetime-local values are the admin's local time; the server reads offset-less dates as UTC.
    const instant = (local: string) =>
      local && !Number.isNaN(new Date(local).getTime()) ? new Date(local).toISOString() : local;
    const body = {
      name: form.name,
      description: form.description,
      startDate: instant(form.startDate),
      endDate: instant(form.endDate),
      currency: form.currency,
      totalAmount: form.totalAmount,
      winnersCount: form.winnersCount,
      prizeDistribution: distribution,
      maxParticipants: form.maxParticipants,
      minGamesRequired: form.minGamesRequired,
      scoringMethod: form.scoringMethod,
      allowBots: form.allowBots,
      requireVerifiedSolana: form.requireVerifiedSolana,
      isFeatured: form.isFeatured,
    };
    const parsed = parseWith(createTournamentSchema, body);
    if (!parsed.success) {
      const next: Record<string, string> = {};
      for (const e of parsed.errors) next[e.path.split('.').at(-1) ?? ''] ??= e.message;
      setErrors(next);
      toast.error(TOURNAMENT_TEXTS.fixFormErrors);
      return;
    }
    try {
      const { message } = await api('createTournament', { body: body as never, quiet: true });
      toast.success(message ?? TOURNAMENT_TEXTS.created);
      setForm(EMPTY);
      await queryClient.invalidateQueries({ queryKey: ['tournament'] });
      onCreated();
    } catch (error) {
      toast.error(
        error instanceof ApiError && error.status !== 0
          ? error.message || TOURNAMENT_TEXTS.createFailed
          : TOURNAMENT_TEXTS.createError,
      );
    }
  }

  const input = 'w-full rounded-lg border border-edge bg-ink px-3 py-2';
  return (
    <form onSubmit={(e) => void submit(e)} noValidate className="grid gap-4 md:grid-cols-2">
      <Field label="Name" name="name" value={form.name} onChange={(v) => set('name', v)} error={errors.name} />
      <Field label="Description" name="description" value={form.description} onChange={(v) => set('description', v)} />
      {(['startDate', 'endDate'] as const).map((key) => (
        <label key={key} className="flex flex-col gap-1 text-sm text-muted">
          {key === 'startDate' ? 'Start date' : 'End date'}
          <input type="datetime-local" className={input} value={form[key]} onChange={(e) => set(key, e.target.value)} />
          {errors[key] && (
            <span role="alert" className="text-red-400">
              {errors[key]}
            </span>
          )}
        </label>
      ))}
      <label className="flex flex-col gap-1 text-sm text-muted">
        Max participants (empty: unlimited)
        <input
          type="number"
          min={2}
          className={input}
          value={form.maxParticipants}
          onChange={(e) => set('maxParticipants', e.target.value)}
        />
        {errors.maxParticipants && (
          <span role="alert" className="text-red-400">
            {errors.maxParticipants}
          </span>
        )}
      </label>
      <label className="flex flex-col gap-1 text-sm text-muted">
        Min games required
        <input
          type="number"
          min={1}
          className={input}
          value={form.minGamesRequired}
          onChange={(e) => set('minGamesRequired', e.target.value)}
        />
        {errors.minGamesRequired && (
          <span role="alert" className="text-red-400">
            {errors.minGamesRequired}
          </span>
        )}
      </label>
      <label className="flex flex-col gap-1 text-sm text-muted">
        Scoring method
        <select
          className={input}
          value={form.scoringMethod}
          onChange={(e) => set('scoringMethod', e.target.value as Form['scoringMethod'])}
        >
          {SCORING_METHODS.map((m) => (
            <option key={m} value={m}>
              {m}
            </option>
          ))}
        </select>
      </label>
      <div className="flex flex-col gap-2 text-sm">
        {(
          [
            ['allowBots', 'Allow bots'],
            ['requireVerifiedSolana', 'Require verified Solana'],
            ['isFeatured', 'Featured'],
          ] as const
        ).map(([key, label]) => (
          <label key={key} className="flex items-center gap-2">
            <input type="checkbox" checked={form[key]} onChange={(e) => set(key, e.target.checked)} />
            {label}
          </label>
        ))}
      </div>
      <label className="flex flex-col gap-1 text-sm text-muted">
        Prize pool currency
        <select
          className={input}
          value={form.currency}
          onChange={(e) => set('currency', e.target.value as Form['currency'])}
        >
          <option value="SLAM">SLAM</option>
          <option value="SOL">SOL</option>
        </select>
      </label>
      <label className="flex flex-col gap-1 text-sm text-muted">
        Total amount
        <input
          type="number"
          min={0}
          step={0.01}
          className={input}
          value={form.totalAmount}
          onChange={(e) => set('totalAmount', e.target.value)}
        />
        {errors.totalAmount && (
          <span role="alert" className="text-red-400">
            {errors.totalAmount}
          </span>
        )}
      </label>
      <div className="flex flex-col gap-2 md:col-span-2">
        <span className="text-sm text-muted">Number of winners</span>
        <div className="flex items-center gap-3">
          <button
            type="button"
            aria-label="Fewer winners"
            className="rounded border border-edge px-3"
            onClick={() => set('winnersCount', clampWinnersCount(form.winnersCount - 1))}
          >
            −
          </button>
          <output aria-label="Number of winners" className="w-8 text-center font-bold">
            {form.winnersCount}
          </output>
          <button
            type="button"
            aria-label="More winners"
            className="rounded border border-edge px-3"
            onClick={() => set('winnersCount', clampWinnersCount(form.winnersCount + 1))}
          >
            +
          </button>
        </div>
        <table className="mt-2 w-full max-w-sm text-sm">
          <caption className="text-left text-muted">Prize split</caption>
          <tbody>
            {distribution.map((p) => (
              <tr key={p.position}>
                <th scope="row" className="py-1 text-left font-normal">
                  #{p.position}
                </th>
                <td className="text-right">
                  {p.amount} {form.currency}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {errors.prizeDistribution && (
          <span role="alert" className="text-red-400">
            {errors.prizeDistribution}
          </span>
        )}
      </div>
      <Button type="submit" className="md:col-span-2">
        Create Tournament
      </Button>
    </form>
  );
}

function Statistics() {
  const stats = useQuery({ queryKey: ['admin', 'stats'], queryFn: async () => (await api('adminStats')).data });
  if (stats.isPending) return <p role="status">Loading statistics…</p>;
  if (!stats.data) return null;
  const data = stats.data;
  return (
    <section aria-label="Statistics">
      <ul className="grid grid-cols-2 gap-3 md:grid-cols-4">
        {USER_ROLES.map((role) => (
          <li key={role} className="rounded-lg border border-edge bg-panel p-4">
            <p className="text-sm text-muted">{role}</p>
            <p className="text-2xl font-bold">{data.userStats[role]?.count ?? 0}</p>
            <p className="text-xs text-muted">{data.userStats[role]?.onlineCount ?? 0} online</p>
          </li>
        ))}
      </ul>
      <dl className="mt-6 grid grid-cols-3 gap-3">
        <div>
          <dt className="text-sm text-muted">Total tournaments</dt>
          <dd className="text-xl font-bold">{data.tournamentCount}</dd>
        </div>
        <div>
          <dt className="text-sm text-muted">New users (7 days)</dt>
          <dd className="text-xl font-bold">{data.recentRegistrations}</dd>
        </div>
        <div>
          <dt className="text-sm text-muted">Total users</dt>
          <dd className="text-xl font-bold">{data.totalUsers}</dd>
        </div>
      </dl>
    </section>
  );
}
