/** A landing section's eyebrow, title and lead paragraph; the title names the section. */
import type { ReactNode } from 'react';

export function SectionHeading({
  id,
  eyebrow,
  title,
  children,
  center = false,
}: {
  id: string;
  eyebrow: string;
  title: string;
  children?: ReactNode;
  center?: boolean;
}) {
  return (
    <div className={center ? 'mx-auto max-w-2xl text-center' : 'max-w-2xl'}>
      <p className="text-sm font-semibold tracking-widest text-gold uppercase">{eyebrow}</p>
      <h2 id={id} className="mt-2 text-3xl font-extrabold text-balance md:text-4xl">
        {title}
      </h2>
      {children && <p className="mt-3 text-lg text-muted">{children}</p>}
    </div>
  );
}
