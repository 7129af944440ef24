// Counts the native dialogs and OS prompts DeskPilot has open, so a popover does not hide
// itself because one of them took focus (see blur-guard.ts). Wrap every one in withNativeDialog.

let open = 0;

export const isNativeDialogOpen = (): boolean => open > 0;

let modal = false;

/** Set by the renderer (ui:modal) while a confirmation or safety question is open in a window. */
export const setModalOpen = (open: boolean): void => {
  modal = open;
};
export const isModalOpen = (): boolean => modal;

export async function withNativeDialog<T>(show: () => Promise<T>): Promise<T> {
  open++;
  try {
    return await show();
  } finally {
    open--;
  }
}
