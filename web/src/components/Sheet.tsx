import Popup, { type PopupProps } from 'antd-mobile/es/components/popup';
import { useFocusTrap } from '../lib/useFocusTrap.ts';

type Props = Omit<PopupProps, 'onMaskClick' | 'onClose'> & { visible: boolean; onClose: () => void };

/**
 * antd-mobile's Popup that keeps keyboard focus inside while open and gives it back to the
 * button that opened it (useFocusTrap); the mask, the system back and Escape close it.
 */
export function Sheet({ visible, onClose, children, ...popup }: Props) {
  const trap = useFocusTrap<HTMLDivElement>(visible, onClose);
  return (
    <Popup visible={visible} onMaskClick={onClose} onClose={onClose} {...popup}>
      <div ref={trap} className="focus-trap">
        {children}
      </div>
    </Popup>
  );
}
