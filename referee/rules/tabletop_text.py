"""The words of Tabletop Croquet's rules, by clause (RULES-SPEC §4.2 quotes the source).

Written out once from the spec's "Source:" lines (Biggar's words, with the words lost in the
PDF extraction restored in brackets, §0.2) so each ruling can quote the rule it applies; the
G-TTC entries hold the resolution the engine applies where the source is silent (§4.3).
"""

CLAUSES: dict[str, tuple[str, str]] = {
    "TTC-01": (
        'Flick',
        'Flick (verb) to propel a game piece (such as a piecepack coin) across the playing area'
        ' with a single finger. A flick is not a sustained push, but a sudden snap. A proper '
        'flick is performed by resting a single fingertip on the playing surface with the '
        'fingernail against the game piece, then either (1) straightening the finger with the '
        'hand held motionless, or (2) straightening the whole hand at the wrist with the arm '
        'held motionless.',
    ),
    "TTC-02": (
        'Course tiles',
        'Set up a croquet course using suit-side down tiles as shown in the following '
        '[diagram]:',
    ),
    "TTC-03": (
        'Endposts',
        'The two endposts are stacks of three tiles.',
    ),
    "TTC-04": (
        'Wicket opening',
        'The pairs of tiles that form the wickets should be about 2 tile widths apart.',
    ),
    "TTC-05": (
        'Spacing',
        'The distance between the endposts and the closest [wicket] should be at least 3 tile '
        'widths, while the paired wickets (1 & 2 and 6 & 7) should be 1 ½ to 2 tile widths '
        'apart.',
    ),
    "TTC-06": (
        'Course size',
        'Build the course as large as you want, but I have found that [a] course about 4 feet '
        'long and half as wide makes for a good game (and also tends to fit on the table).',
    ),
    "TTC-07": (
        'Surface',
        'You want to use a table surface that allows the coins to slide freely [when flicked].',
    ),
    "TTC-08": (
        'Coins',
        'Each player chooses a coin showing a unique face. This allows for up to 10 players (4 '
        '[suit] faces, and 6 non-suit faces.)',
    ),
    "TTC-09": (
        'Playing order',
        'Just like in lawn croquet, where the playing order is traditionally determined by the '
        'color rings on the endposts, the players play in a [standard] coin order: black, red, '
        'blue, green/yellow, blank, ace, 2, 3, 4, then 5. It is suggested that players '
        'determine a player order using some mutually agreed method and then take the coins in '
        'the order above.',
    ),
    "TTC-10": (
        'First placement',
        'Each player, in the standard order, starts play by placing their coin within one tile '
        'width of the left endpost, between that endpost and wicket 1, and then taking their '
        'first flick.',
    ),
    "TTC-11": (
        'Course order',
        'A player’s goal is to flick his coin through the wickets in the standard croquet order'
        ' as follows: 1, 2, 3, 4, 5, 6, 7, hit the right endpost, 7, 6, 8, 4, 9, 2, 1, hit the '
        'left endpost.',
    ),
    "TTC-12": (
        'Completion wins',
        'The first player to complete the course in that precise order wins the game.',
    ),
    "TTC-13": (
        'Passing a wicket',
        'A coin is deemed to have passed a wicket if the center of the coin passes the line '
        '[formed] by the grid lines of the tiles forming the wicket and it goes through in the '
        'proper direction of travel.',
    ),
    "TTC-14": (
        'Direction',
        'The proper direction to go through a wicket is in the direction toward the next '
        'endpost to be hit by that coin; i.e., relative to the above diagram, until striking '
        'the right endpost, a coin must pass wickets from left-to-right, after a coin hits the '
        'right [endpost] (assuming it correctly passed wickets 1 through 7), that coin reverses'
        ' direction and now must pass wickets from right-to-left.',
    ),
    "TTC-15": (
        'Base flick',
        'A player always gets one free flick on his turn.',
    ),
    "TTC-16": (
        'Wicket bonus',
        'Each time the active player’s coin passes the next correct wicket, in the above order,'
        ' the player earns an additional flick for this turn.',
    ),
    "TTC-17": (
        'Turning-endpost bonus',
        'Hitting the right endpost (after correctly passing wicket 7) also earns an additional '
        'flick.',
    ),
    "TTC-18": (
        'Wrong passes earn nothing',
        'Passing a wicket in the wrong direction or out of order or hitting the right endpost '
        'out of order, does not earn a player an additional flick.',
    ),
    "TTC-19": (
        'Hit bonus',
        'If the active player’s coin hits another coin, then the player earns two additional '
        '[flicks].',
    ),
    "TTC-20": (
        'Action required',
        'The player must take one of the following actions:',
    ),
    "TTC-21": (
        'Action 1',
        '1. Continue flicking his coin around the course from his coin’s current position.',
    ),
    "TTC-22": (
        'Action 2',
        '2. Move his coin to any position not more than one coin width from the hit coin and '
        'then continue his turn flicking his own coin from its new position.',
    ),
    "TTC-23": (
        'Action 3',
        '3. Use one of the earned flicks to flick the hit coin in any direction and then '
        '[continue] his turn from his coin’s current position.',
    ),
    "TTC-24": (
        'Action 4',
        '4. Move his coin to any position not more than one coin width from the hit coin, then '
        'use one of the earned flicks to flick the hit coin in any direction and then continue '
        'his turn from his coin’s new position.',
    ),
    "TTC-25": (
        'No repeat earning',
        'Once a coin has been hit, a player cannot earn more flicks by hitting that same coin '
        'again this turn until his coin has successfully passed at least one more wicket or hit'
        ' an endpost.',
    ),
    "TTC-26": (
        'Use all flicks; no carry-over',
        'There is no limit to the number of flicks a player can earn during a turn, but a '
        'player must use all the flicks earned during the current turn; there is no carryover '
        'between turns.',
    ),
    "TTC-27": (
        'Knocked-through wickets count',
        'Note that if a player flicks or knocks another player’s coin through its next correct '
        'wicket, then this does count toward the other player’s completion of the course, but '
        'does not earn [an] extra flick for either player.',
    ),
    "TTC-28": (
        'Own coin off the table',
        'If a player flicks his coin off the table, he looses any remaining flicks for the '
        'current turn and just places his coin back on the edge of the table at the place it '
        'fell off, one coin width in from the edge.',
    ),
    "TTC-29": (
        'Other coin off the table',
        'If a player knocks or flicks some other player’s coin off the table, it is just placed'
        ' back on the table at the place it fell off, one coin width in from the [edge].',
    ),
    "TTC-30": (
        'Tile displaced',
        'If a flicked coin causes one of the wicket tiles to be misplaced, the tile should be '
        'restored to its original position before the next flick.',
    ),
    "TTC-31": (
        'Play from where it lies',
        'Coins must be flicked from where they lie, even if touching a tile or another coin.',
    ),
    "TTC-32": (
        'Touching coins are not a hit',
        'If a player flicks a coin that is touching another coin and the other coin moves, this'
        ' does not count as hitting the other coin.',
    ),
    "TTC-33": (
        'Winning',
        'The first player to flick his coin through the complete course in the given order and '
        'hit the left endpost wins the game.',
    ),
    "TTC-TM1": (
        'Teams',
        'With 4, 6, 8 or 10 players, the game can be played in teams. Choose up teams of equal '
        'size then order the players so that players in different teams alternate in the '
        'obvious way.',
    ),
    "TTC-TM2": (
        'Team win',
        '1. The first team with all members (including rovers, see below) completing the course'
        ' wins the game.',
    ),
    "TTC-TM3": (
        'No flicks for hitting teammates',
        '2. A player does not earn extra flicks by hitting coins belonging to teammates.',
    ),
    "TTC-TM4": (
        'Leave or become a rover',
        '3. Once a player’s coin has passed the last wicket, he has a choice: either hit the '
        'endpost and leave the game or declaring his coin a “rover”.',
    ),
    "TTC-TM5": (
        'Rover rules apply',
        'A player with a “rover” now plays to help his teammates and hinder his opponents under'
        ' a special set of rules:',
    ),
    "TTC-TM6": (
        'Rover wicket flicks',
        '• A rover earns an extra flick by passing any wicket in either direction, but only '
        'once per turn per wicket.',
    ),
    "TTC-TM7": (
        'Rover hit flicks',
        '• A rover earns the extra flicks for hitting opponent’s coins, but only once per coin '
        'per turn. He does get to make his choice of one of the four actions above.',
    ),
    "TTC-TM8": (
        'Forcing a rover out',
        '• Any player may use one of their flicks during their turn to flick a rover so as to '
        'hit the left endpost and force it to complete the course and leave the game, but may '
        'make only one attempt per rover per turn.',
    ),
    "TTC-P1": (
        'Becoming poison',
        'Once a player has completed the course by passing all the wickets and has hit the left'
        ' endpost, he must declare his coin “poison”.',
    ),
    "TTC-P2": (
        "Poison's goal",
        'His goal is now to eliminate all the other players by hitting their coins with his own'
        ' coin.',
    ),
    "TTC-P3": (
        'Killing',
        'Each coin he succeeds in hitting with his coin is killed and immediately looses the '
        'game.',
    ),
    "TTC-P4": (
        'Flicks for kills',
        'The player does earn the two [extra flicks].',
    ),
    "TTC-P5": (
        'Only the active coin is poison',
        'Only the active player’s coin is “poison”, if it hits another “poison” coin, only the '
        'hit coin is killed not the active coin.',
    ),
    "G-TTC-01": (
        'The course diagram is missing',
        "the classic nine-wicket double diamond (§4.4), built to Biggar's spacing rules. "
        'Wickets 3 and 5 are on the "top" (+y) side; 8 and 9 on the bottom.',
    ),
    "G-TTC-02": (
        'Truncated words',
        'restored as listed in §0.2. These do not change the meaning.',
    ),
    "G-TTC-03": (
        'The wicket line',
        'with the suit side down, the tile backs show the grid lines, and the line through the '
        "two tiles' centres is the wicket line. The scoring segment is the part of that line "
        "between the tiles' inner faces (length 2T = 101.6 mm).",
    ),
    "G-TTC-04": (
        '"Hitting" an endpost',
        'a contact onset during motion (§1.2 / G-CCN-06).',
    ),
    "G-TTC-05": (
        'Several items in one flick',
        'each matched item gives +1 in time order, e.g. W1 + W2 = +2, or W7 then the right '
        'endpost = +2.',
    ),
    "G-TTC-06": (
        'Several coins hit in one flick',
        'only the first eligible hit counts (+2 and one action). Later hits in the flick earn '
        'nothing and do not enter hit_set.',
    ),
    "G-TTC-07": (
        'When actions happen, and what the hit coin does',
        'The action is declared after settle. Actions 3/4 make the next flick be of B, and it '
        "costs 1 flick. While B is being flicked, B's events count only for B's owner as "
        "passive events (TTC-27). No flicks are earned by anyone. If B hits the active player's"
        ' coin, that is not a hit. If B goes off the table → TTC-29. If B hits a rover or '
        'poison → nothing special.',
    ),
    "G-TTC-08": (
        'Action 2/4 placement',
        'edge gap ≤ c + 2 mm to B, no overlap with tiles or coins, on the table. Touching B is '
        'allowed. The placement is neutral for wickets: placing a coin beyond a wicket does not'
        ' pass it.',
    ),
    "G-TTC-09": (
        'What resets the no-repeat rule',
        'a scored wicket or the scored right endpost (i.e. idx advances). Contact with an '
        'endpost out of order does not reset it.',
    ),
    "G-TTC-10": (
        '"Must use all flicks"',
        'the referee will not end the turn while flicks_left > 0. A deliberate minimal tap is a'
        ' legal flick. DECL.END_TURN with flicks left is rejected.',
    ),
    "G-TTC-11": (
        '"One coin width in from the edge"',
        'the coin centre is placed c = 19.05 mm inward from E along the inward normal, so the '
        'coin edge is 9.5 mm from the table edge.',
    ),
    "G-TTC-12": (
        'Flicks earned in the same flick as going off the table',
        'lost.',
    ),
    "G-TTC-13": (
        'Coins flicked under action 3/4 that go off the table',
        'replaced; no penalty to anyone.',
    ),
    "G-TTC-14": (
        'What is a "hit"',
        '§1.2. Pre-existing contact is explicitly not a hit. Separate-then-retouch is a hit.',
    ),
    "G-TTC-15": (
        'Passive completion (knocked into the right or left endpost)',
        "counts for the knocked coin's owner, by analogy with TTC-27. Knocked into the right "
        'endpost while at idx 7 → advances. Knocked into the left endpost while at idx 15 → '
        'completes. In non-team play that means the owner wins; in poison play the owner '
        'becomes poison.',
    ),
    "G-TTC-16": (
        'The start zone',
        "edge gap 0–T to the left endpost, with the centre between the endpost's W1-facing face"
        " and W1's tile face, not overlapping anything.",
    ),
    "G-TTC-17": (
        'Coins not yet placed',
        'they do not exist on the table. Players who have not yet placed cannot be hit.',
    ),
    "G-TTC-18": (
        'Backward then forward crossings',
        'each crossing is judged separately. A wrong-direction crossing is neutral. A later '
        'proper-direction crossing of the *next* wicket scores. Crossing an already-scored '
        'wicket again: neutral.',
    ),
    "G-TTC-19": (
        'Repeated wicket numbers',
        'W7, W6, W4, W2 and W1 are each passed twice, in opposite directions. The state machine'
        ' needs the physical wicket and the direction (§4.1).',
    ),
    "G-TTC-20": (
        'The direction for side wickets',
        '±x, like the others. Side wickets face along the course axis.',
    ),
    "G-TTC-21": (
        'Mapping the colour order to piecepack coins',
        'default colours: Moons = black, Suns = red, Arms = blue, Crowns = green (yellow in '
        'some editions). Standard order: Moons, Suns, Arms, Crowns, blank, A, 2, 3, 4, 5.',
    ),
    "G-TTC-22": (
        'The first turn',
        'placement, then the normal turn (1 free flick plus earned flicks).',
    ),
    "G-TTC-23": (
        'Rover details',
        'The rover may be declared any time between passing W1 (return) and touching the left '
        'endpost. A rover completes (DONE, removed) whenever it touches the left endpost by any'
        ' means: its own flick, a forcing flick, or a knock. Rover wicket bonuses use physical '
        "wickets, once per turn each. A rover gets no flicks for teammates. A rover's hit list "
        'is per turn and is never reset. Rovers can still be hit by anyone.',
    ),
    "G-TTC-24": (
        'Forcing a rover',
        "It uses one of the player's available flicks. Any player may do it, teammates "
        'included. Events during the forcing flick earn nothing. A second attempt on the same '
        'rover in the same turn is a foul: it is rejected and rolled back, and no flick is '
        "spent. The active player's coin is not moved.",
    ),
    "G-TTC-25": (
        'Team win timing',
        'the team wins immediately when its last member becomes DONE (this can happen during an'
        " opponent's turn through a forced or knocked completion).",
    ),
    "G-TTC-26": (
        'Turn order in team play',
        'round-robin interleave. DONE players are skipped.',
    ),
    "G-TTC-27": (
        'The poison endgame is not specified',
        'The game ends when at most one player is not KILLED. That player wins. Players who '
        'became poison are still "alive". If the last two are both poison, they hunt each '
        'other. Poison coins earn nothing for wickets. Off-table rules apply to poison coins. A'
        ' killed coin is removed at settle.',
    ),
    "G-TTC-28": (
        'A poison coin passes wickets',
        'neutral.',
    ),
    "G-TTC-29": (
        'Scale',
        "the standard course needs a table of at least 3 × 5 ft. The designer's later v1.1 wiki"
        ' page says "requires a seemless smooth-surface table of at least 3x5 feet"; that is '
        'external context. The compact diagonal course (§4.4.2) is for the 34-inch card table, '
        'and it is marked non-conforming.',
    ),
}
"""Clause id → (title, the rule's words): TTC-nn, TTC-TMn (team), TTC-Pn (poison), G-TTC-nn."""
