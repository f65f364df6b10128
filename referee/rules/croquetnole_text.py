"""The words of Castle Croquetnole's rules, by clause (RULES-SPEC §2.2 quotes the source).

Written out once from the spec's "Source:" lines so each ruling can quote the rule it applies.
"""

CLAUSES: dict[str, tuple[str, str]] = {
    "CCN-01": (
        'Player count',
        '4 players.',
    ),
    "CCN-02": (
        'Coin roles',
        'Four of the coins are called "knights"; the other coins are called "guards".',
    ),
    "CCN-03": (
        'Coin assignment',
        '"Each player has one castle, one knight, and one guard, as follows:" followed by the'
        ' table 1 Moon Ace / 2 Sun 2 / 3 Crown 3 / 4 Arms 4.',
    ),
    "CCN-04": (
        'Castle composition',
        'The tiles are set up as in the illustration above, making four "castles", each of '
        'which consists of a gate, a door, and a tower.',
    ),
    "CCN-05": (
        'Shared gateposts',
        'In the lawn game, each gate consisted of a single wicket; in the piecepack game, in '
        'order to conserve space, each player shares the left tile of her gate with the '
        'player to her left and the right tile of her gate with the player to her right.',
    ),
    "CCN-06": (
        'Gate and door width',
        'Each gate and each door is formed from two face-down tiles that are one tile-width '
        'apart, which equals 2 inches for most piecepacks.',
    ),
    "CCN-07": (
        'Tower',
        'Each tower is a stack of two tiles with the Ace tile of the same suit as the '
        "player's knight on top, face up. (For example, Player 2 would use the Ace of Suns.)",
    ),
    "CCN-08": (
        'Gate–door–tower spacing',
        "The distance from each castle's gate to its door, or from its door to its tower, "
        'should also be one tile-width.',
    ),
    "CCN-09": (
        'Field and orientation',
        'Card tables are about the right size for the playing field, and because they are '
        'usually square, you can put one castle in each corner or on each side.',
    ),
    "CCN-10": (
        'Guard initial placement',
        'Before the game begins, each player places his guard within a single coin-width of '
        'his tower.',
    ),
    "CCN-11": (
        'First turn',
        'To begin the game, the Moons player places his knight within a coin-width of his '
        "castle's tower, plays it, and then plays his guard (which was placed during setup).",
    ),
    "CCN-12": (
        'Turn order',
        'Next, the player to his left (the Suns player) places and plays his knight, and so '
        'on, clockwise.',
    ),
    "CCN-13": (
        'Definition of "play"',
        'To "play" a coin is to flick it, possibly taking bonus flicks if permitted.',
    ),
    "CCN-14": (
        'Flick definition',
        'v. to propel a game piece (such as a piecepack coin) across the playing area with a '
        'single finger. While a flick is more of a push than a strike, it is not a sustained '
        'motion, but a sudden one. A proper flick is performed by resting a single fingertip '
        'on the playing surface with the fingernail against the game piece, then either (1) '
        'straightening the finger with the hand held motionless, or (2) straightening the '
        'whole hand at the wrist with the arm held motionless.',
    ),
    "CCN-15": (
        'Turn content after round 1',
        'After the first round, each player has the option on her turn of playing her knight '
        '(as long as it is not a prisoner), and then her guard.',
    ),
    "CCN-16": (
        'Guard leave / re-enter',
        'If a guard goes through the gate of its castle, in the direction from its tower, it '
        'is said to "leave" the castle; the next time it goes through it in the opposite '
        'direction, it is said to "re-enter" it, and so on.',
    ),
    "CCN-17": (
        'Duty',
        'A guard that has not left its castle is said to be "on duty"; if it leaves it, it is'
        ' said to be "off duty"; if it re-enters it, it is "on duty" again, and so on.',
    ),
    "CCN-18": (
        'Castle membership',
        'In general, a coin is only said to have entered a castle if it passed in through '
        "that castle's gate, and it remains within the castle until it leaves through the "
        "castle's gate.",
    ),
    "CCN-19": (
        'Own-castle exception',
        "The only exception is a coin's own castle; in certain circumstances (such as the "
        'beginning of a game or after it has been freed from prison), a coin may start a turn'
        ' within its own castle.',
    ),
    "CCN-20": (
        'Wasteland',
        'If a coin is not within any castle, it is considered to be outdoors, in the '
        'Wasteland.',
    ),
    "CCN-21": (
        'Invasion',
        'To "invade" another player\'s castle, the knight must enter its gate, pass through '
        'the door (either way), hit the tower, and go out the gate again.',
    ),
    "CCN-22": (
        'No exit through the door',
        'It does not need to leave through the door on the way out; presumably the denizens '
        'of the castle are in hot pursuit, so the knight jumps out a window or something.',
    ),
    "CCN-23": (
        'Scoring',
        'For your knight to "score" a gate, door, or tower, it must go through it (in the '
        'case of gates and doors) or hit it (in the case of towers), in the sequence given '
        'above.',
    ),
    "CCN-24": (
        'Castle order',
        'In order to score, it must visit the castles in the proper sequence as well. The '
        'proper castle sequence starts with the castle to your left and runs clockwise.',
    ),
    "CCN-25": (
        'Worked example',
        'Example: The knight of the first player, Moons, must first enter the Suns castle '
        'gate, then pass through the Suns door, then hit the Suns tower, then leave through '
        'the Suns gate, then enter the Crowns gate, pass through the Crowns door, and so on.',
    ),
    "CCN-26": (
        'Leaving home',
        "Each player brings his knight out of his castle by playing it through its castle's "
        'gate, and "invading" the other castles with it in the proper sequence.',
    ),
    "CCN-27": (
        'Winning',
        'He then re-enters his own castle and hits his tower, while his own guard is "on '
        'duty". The first player to do so wins.',
    ),
    "CCN-28": (
        'Capture',
        'If an invading knight hits, or is hit by, the guard on duty in the castle it is '
        'invading, it becomes a "prisoner", and is placed on top of the castle\'s tower.',
    ),
    "CCN-29": (
        "Release when the captor's guard goes off duty",
        "It is released from prison when the castle's guard goes off duty, …",
    ),
    "CCN-30": (
        'Release by rescue',
        '… or when its own guard on duty comes and hits the tower in which it is imprisoned.',
    ),
    "CCN-31": (
        'Rescuer returns',
        'In the latter case, its guard is immediately returned to its starting position.',
    ),
    "CCN-32": (
        'Released knight',
        "The released knight is placed on its own tower to recover from the enemy's brutality"
        ' until its next turn, when it is also returned to its starting position.',
    ),
    "CCN-33": (
        'Rescuer must be on duty',
        'Note: Your guard must be on duty to release your knight from prison. That means if '
        'it left your castle through its gate on the way to rescuing your knight, it must go '
        'back on duty by returning to your castle through its gate, then leave the castle '
        'some other way, before it can release your knight.',
    ),
    "CCN-34": (
        'Restart after release',
        "Although Lewis Carroll's rules are unclear on this point, in Castle Croquetnole, "
        'after a knight has been released from prison and returned to its own castle, it must'
        ' restart the scoring sequence (gate, door, tower, gate) for the castle in which it '
        'was imprisoned (leaving its own castle via the gate first, of course).',
    ),
    "CCN-35": (
        'Prisoners cannot be played',
        '"(as long as it is not a prisoner)" (from CCN-15)',
    ),
    "CCN-36": (
        'Bonus flicks in general',
        'Under certain circumstances, you may be entitled to flick a coin more than once per '
        'turn. Coins receive the following "bonus flicks" under the following conditions:',
    ),
    "CCN-37": (
        'Knight scores',
        'Knight scores a gate, door, or tower. | Knight receives one bonus flick.',
    ),
    "CCN-38": (
        'Guard takes a prisoner',
        'Guard takes a prisoner. | Guard receives one bonus flick.',
    ),
    "CCN-39": (
        'Guard leaves or enters',
        'Guard leaves or enters its castle by the gate. | Guard receives one bonus flick, but'
        ' may only receive one bonus flick for each of the actions per turn.',
    ),
    "CCN-40": (
        'Strike bonus',
        'One coin strikes another coin, and neither is a guard on duty. | First coin receives'
        ' two bonus flicks, …',
    ),
    "CCN-41": (
        'No repeat strike',
        '… but may not strike the same coin again, unless it scores a gate, door, or tower '
        'first (in which case it does receive the two bonus flicks).',
    ),
    "CCN-42": (
        'Croquet entitlement',
        'Knight hits its own off-duty guard. | Knight may take croquet of any kind. (see '
        'below).',
    ),
    "CCN-43": (
        'Croquet defined',
        'A "croquet" is one of five kinds of bonus possible when your knight strikes its own '
        'guard:',
    ),
    "CCN-44": (
        'Croquet kind 1',
        'You may take two regular bonus flicks.',
    ),
    "CCN-45": (
        'Croquet kind 2',
        'You may pick up your knight and place it anywhere within a coin-width away from your'
        ' guard, then take two regular bonus flicks.',
    ),
    "CCN-46": (
        'Croquet kind 3 (loose)',
        'You may pick up your knight and place it in contact with your guard (without moving '
        'the guard), then flick the knight. This is called a "loose croquet". The knight then'
        ' receives another bonus flick.',
    ),
    "CCN-47": (
        'Croquet kind 4 (tight)',
        'You may pick up your knight, place it in contact with your guard (without moving the'
        ' guard), then hold the knight down with one finger while flicking it with another, '
        'so as to propel the guard away but leave the knight where it is. The knight then '
        'receives another bonus flick. (If the knight happens to move, there is no penalty.) '
        'This is called a "tight croquet".',
    ),
    "CCN-48": (
        'Croquet kind 5',
        'You may play your knight so as to move it only slightly, then flick it in the '
        'direction of the guard and drive it some distance away on your second flick. This '
        'has nearly the same effect as a "loose croquet".',
    ),
    "CCN-49": (
        'Own coin off the table',
        'If a player somehow flicks his coin off of the playing surface (card table, etc.), '
        'he returns his coin to the spot on the edge of the table where the coin fell off, '
        'and loses the rest of the flicks available to that coin.',
    ),
    "CCN-50": (
        'Other coin off the table',
        "If he hits another player's coin off the table, it is simply returned to the spot "
        'where it fell off.',
    ),
    "CCN-51": (
        'Illegal gate entry',
        'For a coin to be flicked into the gate of a castle before it has left the castle it '
        'is already in is illegal.',
    ),
    "CCN-52": (
        'Penalty for illegal entry',
        'The coin must be replaced where it was before it was flicked, and may not be flicked'
        ' again that turn.',
    ),
    "CCN-53": (
        'Extra penalties (optional)',
        'You can make Castle Croquetnole arbitrarily complex by adding penalties from the '
        'official rules of both Croquet and Crokinole.',
    ),
    "CCN-54": (
        'Edge relief (optional)',
        'Alternatively, you can play a looser game, for example, by adding the Croquet rule '
        'that players may replace balls a mallet-head away from the edge of the field if they'
        ' are too close or have crossed the border. (I have generally translated a mallet-'
        'head as a coin-width where necessary.)',
    ),
    "CCN-55": (
        'Whimsy',
        'You can even play the game with flamingoes and hedgehogs if you like…',
    ),
}
"""Clause id → (title, the source's words)."""
