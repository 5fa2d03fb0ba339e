import Button from 'antd-mobile/es/components/button';
import Popup, { type PopupProps } from 'antd-mobile/es/components/popup';
import { useTranslation } from 'react-i18next';
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

/** A form sheet's Cancel and Confirm, both off while its request is sent. */
export function SheetButtons({ sending, onCancel, onConfirm }: { sending: boolean; onCancel: () => void; onConfirm: () => void }) {
  const { t } = useTranslation();
  return (
    <div className="sheet__buttons">
      <Button block size="large" fill="outline" disabled={sending} onClick={onCancel}>
        {t('common.cancel')}
      </Button>
      <Button block size="large" color="primary" loading={sending} disabled={sending} onClick={onConfirm}>
        {t('common.confirm')}
      </Button>
    </div>
  );
}
