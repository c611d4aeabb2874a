// The page's one state object (the table as last drawn, the socket, the flags).


export const app = {
  options: null,      // GET /api/options
  ws: null,
  session: null,      // {table, token, kind}
  state: null,        // latest "state" message
  selected: new Set(),
  retries: 0,
  leaving: false,
  dealEvents: [],     // this deal's events as this seat saw them (pass bubbles, exchange)
  focusHand: false,   // after Play: move focus to the hand once the new state is drawn
  hinting: false,
  resultClosed: null, // the result the player closed to look at the table ("deal:phase")
  autoPassed: -1,     // table action count at which we last passed for the player
  landing: 0,         // flights on their way to the pile
  flights: new Set(), // each flight in the air: its function that lands it at once
  rules: [],          // this table's rules in plain words (welcome)
  invites: [],        // the host's friend seats (welcome): [{player, name, token}]
  askedNext: null,    // the result ("deal:phase") this page asked to move on from
  heldResult: null,   // a result view kept open over a deal someone else started
  timerUntil: null,   // {player, until}: when the stand-in moves (state.table.timer)
  pauseCheck: false,  // after a welcome: pause again if the page is hidden (one human)
};
