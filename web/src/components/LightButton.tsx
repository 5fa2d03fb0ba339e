import 'antd-mobile/es/components/button/button.css';
import type { ReactNode } from 'react';

type Props = {
  children: ReactNode;
  onClick: () => void;
  color?: 'primary' | 'default';
  fill?: 'solid' | 'outline';
  className?: string;
};

/**
 * A large block button that looks exactly like antd-mobile's (its stylesheet and class names)
 * without its code: the home route's buttons, in its first download. Elsewhere, the real Button.
 */
export function LightButton({ children, onClick, color = 'default', fill = 'solid', className }: Props) {
  const classes = ['adm-button', `adm-button-${color}`, 'adm-button-block', 'adm-button-large', 'adm-button-shape-default'];
  if (fill === 'outline') classes.push('adm-button-fill-outline');
  if (className) classes.push(className);
  return (
    <button type="button" className={classes.join(' ')} onClick={onClick}>
      <span>{children}</span>
    </button>
  );
}
