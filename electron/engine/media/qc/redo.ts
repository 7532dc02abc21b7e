/** Dubbing it again: the terminal's command, and the window's button (which shows the cost first). */
export const REDO = {
  remedy: `Dub it again (\`dubdesk again ID\`, charged again), or check it by ear before handing it on.`,
  remedyInApp: 'Dub it again (Dub again shows its cost first), or check it by ear before handing it on.',
};
