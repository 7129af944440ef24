import { useEffect } from 'react';
import { call } from '../lib/api';

/**
 * While a confirmation or safety question is on screen, main must not hide the window when it
 * loses focus (the user may switch away to check something before answering).
 */
export function useModalGuard(): void {
  useEffect(() => {
    void call((api) => api.uiModal({ open: true }));
    return () => void call((api) => api.uiModal({ open: false }));
  }, []);
}
