/**
 * The leaderboard's medals for the top 3, drawn in SVG (no emoji: not every system has an emoji font).
 * An image named by its metal, so the rank beside it reads "Rank 1, Gold medal".
 */
const MEDALS = [
  { name: 'Gold medal', fill: '#f59e0b', rim: '#fcd34d' },
  { name: 'Silver medal', fill: '#94a3b8', rim: '#e2e8f0' },
  { name: 'Bronze medal', fill: '#b45309', rim: '#f59e0b' },
] as const;

/** The medal of a rank from 1 to 3; null for any other rank. */
export function Medal({ rank, className = 'size-8' }: { rank: number; className?: string }) {
  const medal = MEDALS[rank - 1];
  if (!medal) return null;
  return (
    <svg viewBox="0 0 32 32" className={className} role="img" aria-label={medal.name}>
      <path d="M9 2h6l3 9h-6zM23 2h-6l-3 9h6z" fill="#7c3aed" />
      <circle cx="16" cy="20" r="10" fill={medal.fill} stroke={medal.rim} strokeWidth="2" />
      <text x="16" y="24.5" textAnchor="middle" fontSize="12" fontWeight="700" fill="#0f0b1e" aria-hidden="true">
        {rank}
      </text>
    </svg>
  );
}
