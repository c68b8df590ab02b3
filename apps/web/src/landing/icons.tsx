/** The landing page's icons: the app's one set (components/Icon.tsx), a little larger and lighter. */
import type { ReactElement } from 'react';
import { Icon, type IconName } from '../components/Icon.tsx';

export type LandingIconName = IconName;

export function LandingIcon({ name, className = 'size-6' }: { name: IconName; className?: string }): ReactElement {
  return <Icon name={name} className={className} light />;
}
