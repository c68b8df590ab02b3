/**
 * /admin: access states (sign-in, admin access, superadmin), then three tabs — the Create Tournament
 * form with its validation, winners-count clamp and prize split, Manage Tournaments, and Statistics,
 * which ends with the admin audit: every admin action, newest first, a page at a time (docs/security.md).
 */
import * as Tabs from '@radix-ui/react-tabs';
import {
  ADMIN_TEXTS,
  MIN_GAMES_REQUIRED,
  PRIZE_AMOUNT_STEP,
  SCORING_METHODS,
  SCORING_METHOD_LABELS,
  TOURNAMENT_MIN_PARTICIPANTS,
  TOURNAMENT_TEXTS,
  USER_ROLES,
  WINNERS_COUNT,
  clampWinnersCount,
  createTournamentSchema,
  prizeDistributionFor,
  prizeDistributionMatches,
} from '@memeslam/protocol';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Navigate } from 'react-router';
import { toast } from 'sonner';
import { ApiError, api } from '../api/http.ts';
import { useSession } from '../auth/session.ts';
import { AuditLog } from '../admin/AuditLog.tsx';
import { Button, Field } from '../components/Field.tsx';
import { tournamentErrorField } from '../forms/schemas.ts';
import { useForm } from '../forms/useForm.ts';

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
  /** Per-place amounts as typed; null follows the split, recomputed whenever total or winners change. */
  prizeAmounts: string[] | null;
}

const EMPTY: Form = {
  name: '',
  description: '',
  startDate: '',
  endDate: '',
  maxParticipants: '',
  minGamesRequired: String(MIN_GAMES_REQUIRED.default),
  scoringMethod: 'totalPoints',
  allowBots: false,
  requireVerifiedSolana: false,
  isFeatured: false,
  currency: 'SLAM',
  totalAmount: '',
  winnersCount: WINNERS_COUNT.default,
  prizeAmounts: null,
};

/** The prize split as shown: typed amounts, or the even split of a valid total. */
function prizes(form: Form) {
  const total = Number(form.totalAmount);
  const validTotal = Number.isFinite(total) && total > 0 ? total : 0;
  const split = prizeDistributionFor(validTotal, form.winnersCount);
  const distribution = form.prizeAmounts
    ? form.prizeAmounts.map((amount, index) => ({
        position: index + 1,
        amount: amount === '' ? Number.NaN : Number(amount),
      }))
    : split;
  const prizeSum = distribution.reduce((sum, p) => sum + (Number.isFinite(p.amount) ? p.amount : 0), 0);
  const sumMatches = validTotal > 0 && prizeDistributionMatches(validTotal, distribution);
  return { validTotal, split, distribution, prizeSum, sumMatches };
}

/** What POST /tournaments is sent. */
function tournamentBody(form: Form) {
  // datetime-local values are the admin's local time; the server reads offset-less dates as UTC.
  const instant = (local: string) =>
    local && !Number.isNaN(new Date(local).getTime()) ? new Date(local).toISOString() : local;
  return {
    name: form.name,
    description: form.description,
    startDate: instant(form.startDate),
    endDate: instant(form.endDate),
    currency: form.currency,
    totalAmount: form.totalAmount,
    winnersCount: form.winnersCount,
    prizeDistribution: prizes(form).distribution,
    maxParticipants: form.maxParticipants,
    minGamesRequired: form.minGamesRequired,
    scoringMethod: form.scoringMethod,
    allowBots: form.allowBots,
    requireVerifiedSolana: form.requireVerifiedSolana,
    isFeatured: form.isFeatured,
  };
}

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
          <AuditLog />
        </Tabs.Content>
      </Tabs.Root>
    </main>
  );
}

function CreateTournament({ onCreated }: { onCreated: () => void }) {
  const queryClient = useQueryClient();
  const tournament = useForm(EMPTY, createTournamentSchema, {
    input: tournamentBody,
    fieldOf: tournamentErrorField,
    // One toast however often the form is sent with errors.
    onInvalid: () => toast.error(TOURNAMENT_TEXTS.fixFormErrors, { id: 'tournament-form-errors' }),
  });
  const { values: form, setValues, setField, errors, setError, submit } = tournament;
  const { validTotal, split, distribution, prizeSum, sumMatches } = prizes(form);
  const set = <K extends keyof Form>(key: K, value: Form[K]) => {
    setField(key, value);
    // The split is recomputed when the total or the winners count changes.
    if (key === 'totalAmount' || key === 'winnersCount') {
      setValues((f) => ({ ...f, prizeAmounts: null }));
      setError('prizeDistribution', undefined);
    }
  };
  const setPrize = (index: number, value: string) => {
    setValues((f) => ({
      ...f,
      prizeAmounts: (f.prizeAmounts ?? split.map((p) => String(p.amount))).map((a, i) => (i === index ? value : a)),
    }));
    setError('prizeDistribution', undefined);
  };

  async function create() {
    try {
      const { message } = await api('createTournament', { body: tournamentBody(form) as never, quiet: true });
      toast.success(message ?? TOURNAMENT_TEXTS.created);
      setValues(EMPTY);
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
    <form onSubmit={submit(create)} noValidate className="grid gap-4 md:grid-cols-2">
      <Field label="Name" name="name" value={form.name} onChange={(v) => set('name', v)} error={errors.name} />
      <Field label="Description" name="description" value={form.description} onChange={(v) => set('description', v)} />
      {/* Field keeps each error outside its <label>, so the field's name stays its label. */}
      {(['startDate', 'endDate'] as const).map((key) => (
        <Field
          key={key}
          label={key === 'startDate' ? 'Start date' : 'End date'}
          name={key}
          type="datetime-local"
          value={form[key]}
          onChange={(v) => set(key, v)}
          error={errors[key]}
        />
      ))}
      <Field
        label="Max participants (empty: unlimited)"
        name="maxParticipants"
        type="number"
        min={TOURNAMENT_MIN_PARTICIPANTS}
        value={form.maxParticipants}
        onChange={(v) => set('maxParticipants', v)}
        error={errors.maxParticipants}
      />
      <Field
        label="Min games required"
        name="minGamesRequired"
        type="number"
        min={1}
        value={form.minGamesRequired}
        onChange={(v) => set('minGamesRequired', v)}
        error={errors.minGamesRequired}
      />
      <label className="flex flex-col gap-1 text-sm text-muted">
        Scoring method
        <select
          className={input}
          value={form.scoringMethod}
          onChange={(e) => set('scoringMethod', e.target.value as Form['scoringMethod'])}
        >
          {SCORING_METHODS.map((m) => (
            <option key={m} value={m}>
              {SCORING_METHOD_LABELS[m]}
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
      <Field
        label="Total amount"
        name="totalAmount"
        type="number"
        min={0}
        step={0.01}
        value={form.totalAmount}
        onChange={(v) => set('totalAmount', v)}
        error={errors.totalAmount}
      />
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
            {distribution.map((p, index) => (
              <tr key={p.position}>
                <th scope="row" className="py-1 text-left font-normal">
                  #{p.position}
                </th>
                <td className="py-1 text-right">
                  <input
                    type="number"
                    min={0}
                    step={PRIZE_AMOUNT_STEP}
                    aria-label={`Prize for place ${p.position}`}
                    className="w-32 rounded-lg border border-edge bg-ink px-2 py-1 text-right"
                    value={form.prizeAmounts?.[index] ?? String(p.amount)}
                    onChange={(e) => setPrize(index, e.target.value)}
                  />{' '}
                  {form.currency}
                </td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row" className="pt-2 text-left font-normal text-muted">
                Sum
              </th>
              <td className={`pt-2 text-right ${sumMatches || validTotal === 0 ? 'text-muted' : 'text-red-400'}`}>
                <output aria-label="Prize sum">
                  {prizeSum} of {validTotal} {form.currency}
                </output>
              </td>
            </tr>
          </tfoot>
        </table>
        {validTotal > 0 && !sumMatches && !errors.prizeDistribution && (
          <span className="text-sm text-red-400">{TOURNAMENT_TEXTS.prizeDistributionMismatch}</span>
        )}
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
      {data.failingPayouts.length > 0 && (
        <div role="alert" className="mb-6 rounded-lg border border-red-400 bg-panel p-4">
          <h2 className="font-bold text-red-400">
            {data.failingPayouts.length === 1
              ? '1 tournament payout is failing'
              : `${data.failingPayouts.length} tournament payouts are failing`}
          </h2>
          <p className="text-sm text-muted">Each is retried every minute; other tournaments are paid as usual.</p>
          <ul className="mt-2 space-y-2 text-sm">
            {data.failingPayouts.map((payout) => (
              <li key={payout.tournamentId}>
                <span className="font-semibold">{payout.name}</span> (ended {new Date(payout.endDate).toLocaleString()}
                ): {payout.error}{' '}
                <span className="text-muted">
                  — {payout.attempts} {payout.attempts === 1 ? 'attempt' : 'attempts'}, last{' '}
                  {new Date(payout.lastAttemptAt).toLocaleString()}
                </span>
              </li>
            ))}
          </ul>
        </div>
      )}
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
