// React 19 has useSyncExternalStore itself: libraries that still import the shim package for
// older Reacts (react-i18next, antd-mobile) get React's own through this (vite.config.ts alias).
export { useSyncExternalStore } from 'react';
