import type { ToastShowProps } from 'antd-mobile';

/**
 * A toast, with antd-mobile's Toast (and its animation library) loaded on first use, so the
 * home route does not download it before anything needs saying.
 */
export function showToast(props: ToastShowProps): void {
  void import('antd-mobile').then(({ Toast }) => Toast.show(props));
}
