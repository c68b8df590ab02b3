/** The account menu of the nav bar: Profile and Settings (both /profile) and Sign out. */
import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { AccountBadge } from './AccountBadge.tsx';

const itemClass = 'cursor-pointer rounded px-3 py-2 text-sm outline-none data-[highlighted]:bg-edge';

export function AccountMenu({
  username,
  onProfile,
  onSignOut,
}: {
  username: string;
  onProfile(): void;
  onSignOut(): void;
}) {
  return (
    // Not modal: a modal menu hides the rest of the page with aria-hidden while its links stay focusable.
    <DropdownMenu.Root modal={false}>
      {/* Named by its words, not an aria-label, so the visible username is part of the name. */}
      <DropdownMenu.Trigger className="rounded-md">
        <span className="sr-only">Account menu</span>
        <AccountBadge username={username} />
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content align="end" className="z-50 min-w-40 rounded-lg border border-edge bg-panel p-1">
          {['Profile', 'Settings'].map((label) => (
            <DropdownMenu.Item key={label} onSelect={onProfile} className={itemClass}>
              {label}
            </DropdownMenu.Item>
          ))}
          <DropdownMenu.Item onSelect={onSignOut} className={itemClass}>
            Sign out
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
