/** Button looks shared by the landing sections (text colors meet WCAG AA on their backgrounds). */
export const PRIMARY_BUTTON =
  'inline-flex items-center justify-center gap-2 rounded-xl bg-gold px-6 py-3 text-base font-bold text-ink shadow-lg shadow-gold/20 transition hover:bg-amber-400';
export const SECONDARY_BUTTON =
  'inline-flex items-center justify-center gap-2 rounded-xl border border-edge bg-panel/60 px-6 py-3 text-base font-semibold text-white transition hover:border-brand hover:bg-brand/15';
export const SMALL_BUTTON =
  'inline-flex items-center justify-center gap-2 rounded-lg border border-edge bg-panel px-3 py-2 text-sm font-semibold text-white transition hover:border-brand hover:bg-brand/15';
/** A text link inside a section, to one of the public pages. */
export const SECTION_LINK =
  'inline-flex items-center gap-1.5 font-semibold text-gold underline-offset-4 hover:underline';
/** The width and side padding of every section, the nav bar's. */
export const CONTAINER = 'mx-auto w-full max-w-6xl px-4 md:px-6';
