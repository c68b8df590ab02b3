/** The signed-in user's initial and name: the account menu's trigger, and its stand-in while it loads. */
export function AccountBadge({ username }: { username: string }) {
  return (
    <span className="flex items-center gap-2 rounded-md px-2 py-1 text-sm">
      <span className="flex h-8 w-8 items-center justify-center rounded-full bg-brand font-bold" aria-hidden="true">
        {username.charAt(0).toUpperCase()}
      </span>
      <span>{username}</span>
    </span>
  );
}
