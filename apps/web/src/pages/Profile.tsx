/**
 * /profile: username (edit, save, cancel), the read-only e-mail, preferences saved to the server,
 * level and stats, the wallet (balance, total won, the verified Solana address), the last 3 games,
 * achievements, and the account actions: change password, export data and delete account.
 */
import { RatingCurve } from '../components/RatingCurve.tsx';
import * as Dialog from '@radix-ui/react-dialog';
import {
  ACHIEVEMENTS,
  AUTH_TEXTS,
  type Preferences,
  RECENT_ACTIVITY_GAMES,
  SUCCESS_TEXTS,
  VALIDATION_TEXTS,
  formatGameTime,
} from '@memeslam/protocol';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { toast } from 'sonner';
import { ApiError, api } from '../api/http.ts';
import { session, useSession } from '../auth/session.ts';
import { Button, Field } from '../components/Field.tsx';
import { Icon } from '../components/Icon.tsx';
import { changePasswordFormSchema, usernameFormSchema } from '../forms/schemas.ts';
import { unchecked, useForm } from '../forms/useForm.ts';
import { WalletPanel } from '../wallet/WalletPanel.tsx';

const PREFERENCE_LABELS: Record<keyof Preferences, string> = {
  sound: 'Sound Effects',
  animations: 'Animations',
  autoPlay: 'Auto Play Ready',
};

export function Profile() {
  const { user } = useSession();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [editing, setEditing] = useState(false);
  const usernameForm = useForm({ username: user?.username ?? '' }, usernameFormSchema);
  const history = useQuery({
    queryKey: ['history', RECENT_ACTIVITY_GAMES],
    queryFn: async () =>
      (await api('gameHistory', { query: { limit: RECENT_ACTIVITY_GAMES }, quiet: true })).data.games,
  });
  if (!user) return null;

  async function saveProfile(changes: { username?: string; preferences?: Partial<Preferences> }) {
    try {
      const { data } = await api('updateProfile', { body: changes, quiet: true });
      session.setUser(data.user);
      await queryClient.invalidateQueries({ queryKey: ['me'] });
      toast.success(SUCCESS_TEXTS.profileUpdated);
      return true;
    } catch (error) {
      toast.error(error instanceof ApiError && error.message ? error.message : AUTH_TEXTS.profileUpdateFailed);
      return false;
    }
  }

  async function saveUsername(changes: { username: string }) {
    if (await saveProfile(changes)) setEditing(false);
  }

  async function exportData() {
    const { data } = await api('exportAccount');
    const blob = new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' });
    const link = document.createElement('a');
    link.href = URL.createObjectURL(blob);
    link.download = 'memeslam-account.json';
    link.click();
    URL.revokeObjectURL(link.href);
  }

  const stats = user.stats;
  const unlocked = new Set(user.achievements.map((a) => a.id));
  return (
    <main className="mx-auto max-w-4xl space-y-8 px-4 py-10">
      <h1 className="text-4xl font-bold">Profile settings</h1>

      <section aria-labelledby="account-title" className="rounded-lg border border-edge bg-panel p-4">
        <h2 id="account-title" className="mb-4 text-xl font-semibold">
          Account
        </h2>
        {editing ? (
          <form onSubmit={usernameForm.submit(saveUsername)} noValidate className="flex flex-col gap-3">
            <Field label="Username" {...usernameForm.field('username')} />
            <div className="flex gap-2">
              <Button type="submit">Save</Button>
              <button
                type="button"
                className="rounded-lg border border-edge px-4 py-2"
                onClick={() => {
                  usernameForm.setField('username', user.username);
                  setEditing(false);
                }}
              >
                Cancel
              </button>
            </div>
          </form>
        ) : (
          <div className="flex items-center justify-between">
            <p>
              <span className="text-sm text-muted">Username</span>
              <span className="block text-lg font-semibold">{user.username}</span>
            </p>
            <button type="button" className="rounded-lg border border-edge px-4 py-2" onClick={() => setEditing(true)}>
              Edit
            </button>
          </div>
        )}
        {user.isGuest ? (
          // A guest's address is one the server made up: instead, the way to become an account.
          <p className="mt-4 text-sm">
            <span className="block text-muted">Guest account</span>
            <Link to="/register" className="font-semibold underline">
              Create an account
            </Link>{' '}
            to keep your games, stats and level and to join tournaments.
          </p>
        ) : (
          <p className="mt-4">
            <span className="text-sm text-muted">Email</span>
            <span className="block">{user.email}</span>
            <span className="text-xs text-muted">{VALIDATION_TEXTS.emailCannotBeChanged}</span>
          </p>
        )}
      </section>

      <section aria-labelledby="prefs-title" className="rounded-lg border border-edge bg-panel p-4">
        <h2 id="prefs-title" className="mb-4 text-xl font-semibold">
          Preferences
        </h2>
        {(Object.keys(PREFERENCE_LABELS) as (keyof Preferences)[]).map((key) => (
          <label key={key} className="flex items-center justify-between py-2">
            <span>{PREFERENCE_LABELS[key]}</span>
            <input
              type="checkbox"
              role="switch"
              checked={user.preferences[key]}
              onChange={(event) => void saveProfile({ preferences: { [key]: event.target.checked } })}
              className="h-5 w-5"
            />
          </label>
        ))}
      </section>

      <section aria-labelledby="progress-title" className="rounded-lg border border-edge bg-panel p-4">
        <h2 id="progress-title" className="mb-4 text-xl font-semibold">
          Level {user.level}
        </h2>
        <dl className="grid grid-cols-2 gap-3 md:grid-cols-5">
          {(
            [
              ['Games Played', stats.gamesPlayed],
              ['Games Won', stats.gamesWon],
              ['Win Rate', `${stats.winRate}%`],
              ['Total Points', stats.totalPoints],
              ['Fastest Win', stats.fastestGame === null ? '—' : formatGameTime(stats.fastestGame)],
            ] as const
          ).map(([label, value]) => (
            <div key={label}>
              <dt className="text-xs text-muted">{label}</dt>
              <dd className="text-xl font-bold">{value}</dd>
            </div>
          ))}
        </dl>
        {user.rating && <RatingCurve rating={user.rating} />}
      </section>

      <WalletPanel user={user} />

      <section aria-labelledby="recent-title" className="rounded-lg border border-edge bg-panel p-4">
        <h2 id="recent-title" className="mb-4 text-xl font-semibold">
          Recent activity
        </h2>
        {history.data && history.data.length > 0 ? (
          <ul className="space-y-2">
            {history.data.map((game) => (
              <li key={game.gameId} className="flex justify-between">
                <span className={game.won ? 'text-green-400' : 'text-red-400'}>{game.won ? 'Won' : 'Lost'}</span>
                <span>{formatGameTime(game.duration)}</span>
                <span className="text-muted">{new Date(game.endedAt).toLocaleDateString('en-US')}</span>
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-muted">{AUTH_TEXTS.noRecentGames}</p>
        )}
      </section>

      <section aria-labelledby="achievements-title" className="rounded-lg border border-edge bg-panel p-4">
        <h2 id="achievements-title" className="mb-4 text-xl font-semibold">
          Achievements
        </h2>
        <ul className="grid grid-cols-2 gap-3 md:grid-cols-4">
          {/* Locked ones are told apart by a lock, a dashed border and muted text, never by fading (contrast). */}
          {ACHIEVEMENTS.map((a) => {
            const isUnlocked = unlocked.has(a.id);
            return (
              <li
                key={a.id}
                className={`rounded-lg border p-3 ${isUnlocked ? 'border-gold bg-gold/10' : 'border-dashed border-edge'}`}
                aria-label={`${a.name}: ${isUnlocked ? 'unlocked' : 'locked'}`}
              >
                <p className={`flex items-center gap-1.5 font-semibold ${isUnlocked ? 'text-gold' : 'text-muted'}`}>
                  <Icon name={isUnlocked ? 'check' : 'lock'} className="size-4 shrink-0" />
                  {a.name}
                </p>
                <p className="text-xs text-muted">{a.description}</p>
              </li>
            );
          })}
        </ul>
      </section>

      <section aria-labelledby="actions-title" className="flex flex-wrap gap-3">
        <h2 id="actions-title" className="sr-only">
          Account actions
        </h2>
        {!user.isGuest && <ChangePassword />}
        <button type="button" className="rounded-lg border border-edge px-4 py-2" onClick={() => void exportData()}>
          Export Data
        </button>
        <DeleteAccount isGuest={user.isGuest} onDeleted={() => navigate('/', { replace: true })} />
      </section>
    </main>
  );
}

function ChangePassword() {
  const [open, setOpen] = useState(false);
  // The dialog's one error, a check's or the server's, shows under the new password; typing leaves it.
  const { values, field, errors, setError, submit } = useForm(
    { currentPassword: '', newPassword: '' },
    changePasswordFormSchema,
    { fieldOf: () => 'form' },
  );
  async function change() {
    try {
      const { data, message } = await api('changePassword', { body: values, quiet: true });
      session.signIn(data.token, data.user);
      toast.success(message ?? '');
      setOpen(false);
    } catch (failure) {
      setError('form', failure instanceof ApiError ? failure.message : undefined);
    }
  }
  return (
    <Dialog.Root open={open} onOpenChange={setOpen}>
      <Dialog.Trigger className="rounded-lg border border-edge px-4 py-2">Change Password</Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-black/60" />
        <Dialog.Content className="fixed top-1/2 left-1/2 z-50 w-[min(28rem,90vw)] -translate-x-1/2 -translate-y-1/2 rounded-lg border border-edge bg-panel p-6">
          <Dialog.Title className="text-xl font-semibold">Change password</Dialog.Title>
          <Dialog.Description className="mt-1 text-sm text-muted">
            Other devices are signed out when the password changes.
          </Dialog.Description>
          <form onSubmit={submit(change)} noValidate className="mt-4 flex flex-col gap-3">
            <Field label="Current password" type="password" {...field('currentPassword')} />
            <Field label="New password" type="password" {...field('newPassword')} error={errors.form} />
            <Button type="submit">Change password</Button>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

function DeleteAccount({ isGuest, onDeleted }: { isGuest: boolean; onDeleted: () => void }) {
  const [open, setOpen] = useState(false);
  // The server checks the password; its refusal shows under the field, and typing leaves it.
  const { values, field, errors, setError, submit } = useForm({ password: '' }, unchecked);
  async function confirm() {
    try {
      const { message } = await api('deleteAccount', { body: isGuest ? {} : values, quiet: true });
      session.clear({ signedOut: true });
      toast.success(message ?? '');
      onDeleted();
    } catch (failure) {
      setError('form', failure instanceof ApiError ? failure.message : undefined);
    }
  }
  return (
    <Dialog.Root open={open} onOpenChange={setOpen}>
      <Dialog.Trigger className="rounded-lg border border-red-500 px-4 py-2 text-red-300">
        Delete Account
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-black/60" />
        <Dialog.Content className="fixed top-1/2 left-1/2 z-50 w-[min(28rem,90vw)] -translate-x-1/2 -translate-y-1/2 rounded-lg border border-edge bg-panel p-6">
          <Dialog.Title className="text-xl font-semibold">Delete your account?</Dialog.Title>
          <Dialog.Description className="mt-1 text-sm text-muted">
            Your account and personal data are removed. Finished games keep an anonymous seat. This cannot be undone.
          </Dialog.Description>
          <form onSubmit={submit(confirm)} noValidate className="mt-4 flex flex-col gap-3">
            {!isGuest && <Field label="Password" type="password" {...field('password')} error={errors.form} />}
            <Button type="submit" tone="danger">
              Delete my account
            </Button>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
