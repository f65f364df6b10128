"""The words of Carroll's Castle Croquet, by clause (RULES-SPEC §3.2 quotes the source).

CAR-nn hold Carroll's own sentences (carroll-castle-croquet.txt); G-CAR-nn hold the short
resolution of the gap (RULES-SPEC §3.3) that a ruling applies.  Written out once so each ruling
can quote the rule it applies.
"""

CLAUSES: dict[str, tuple[str, str]] = {
    "CAR-01": (
        'Equipment and roles',
        'This game requires 8 balls, 8 arches, and 4 flags; 4 of the balls are called '
        '“soldiers,” the others “sentinels.”',
    ),
    "CAR-02": (
        'Castles',
        'The arches and flags are set up as in the figure, making 4 “castles,” and each '
        'player has a castle, a soldier, and a sentinel.',
    ),
    "CAR-03": (
        'Initial placement',
        'To begin the game, the soldier is placed just within the gate, and the sentinel '
        'half-way between the gate and the door.',
    ),
    "CAR-04": (
        'Distances',
        '(N.B.—The distance from one gate to the next should be 6 or 8 yards, and the '
        'distance from the gate to the door, or from the door to the flag, 2 or 3 yards.)',
    ),
    "CAR-05": (
        'Turn order',
        'The soldiers are played first, in the order given in the figure, then the sentinels '
        'in the same order, and so on.',
    ),
    "CAR-06": (
        'Goal',
        'Each player has to bring his soldier out of its castle, and with it “invade” the '
        'other castles in order (e. g., No. 3 has to invade castles 4, 1, 2), re-enter his '
        'own, and touch the flag, and then to touch it with his sentinel (which, if out of '
        'the castle, must re-enter for this purpose); and whoever does all this first, wins.',
    ),
    "CAR-07": (
        'Invasion',
        'To “invade” a castle, the soldier must enter at the gate, go through the door '
        '(either way), touch the flag, and come out at the gate again.',
    ),
    "CAR-08": (
        'Gate-only entry; duty',
        '(N.B.—No ball can enter or leave a castle except at the gate. A sentinel, that has '
        'not left his castle, is said to be “on duty,” wherever he happen to be.)',
    ),
    "CAR-09": (
        'Capture A (touch)',
        'If a sentinel and soldier touch, while both are within the sentinel’s castle, …',
    ),
    "CAR-10": (
        'Capture B (entry)',
        '… or if a soldier enter a castle while its sentinel and his own are both “on duty,” '
        'the soldier becomes “prisoner” …',
    ),
    "CAR-11": (
        'Prisoner placement',
        '… the soldier becomes “prisoner” and is placed behind the flag.',
    ),
    "CAR-12": (
        'Prisoners cannot move',
        'He cannot move till released …',
    ),
    "CAR-13": (
        'Release',
        '… which is done either by his own sentinel (on duty) coming and touching the flag, '
        'or by the sentinel leaving the castle.',
    ),
    "CAR-14": (
        'Rescuer reset',
        'In the former case, his own sentinel is put back where he was at the beginning of '
        'the game; …',
    ),
    "CAR-15": (
        'Released soldier',
        '… and in either case the released soldier is placed behind the door, and cannot be '
        'again taken prisoner until after his next turn.',
    ),
    "CAR-16": (
        'Play again',
        'When a soldier goes through an arch, or touches a flag, in his proper course, or '
        'plays after being released, or when a sentinel enters or leaves his castle, or takes '
        'a prisoner, he may be played again; …',
    ),
    "CAR-17": (
        'A sentinel may not cross twice',
        '… but a sentinel may not enter or leave his castle twice in one turn.',
    ),
    "CAR-18": (
        'Sentinels ignore foreign arches',
        '(N.B.—A sentinel can only enter or leave his own castle: no account is taken of his '
        'going through any arch other than his own gate.)',
    ),
    "CAR-19": (
        'Croquet',
        'If a ball touch another (except a sentinel on duty, a prisoner, or a released '
        'prisoner who has not played since his release), the player may use it to croquet his '
        'own with; but may not move it in doing so, unless it be his own sentinel (not on '
        'duty).',
    ),
    "CAR-20": (
        'No croquet twice off the same ball',
        'He may not croquet himself twice in one turn with the same ball, unless he has done '
        'one of the things mentioned in Rule IV. meanwhile.',
    ),
    "CAR-21": (
        'Croquet is not a continuation',
        'In this game, croqueting does not give (as in the ordinary game) the right of '
        'playing again.',
    ),
    "CAR-22": (
        'Colours',
        'The following arrangement of the 8 balls as soldiers and sentinels will be found '
        'convenient:— Soldier.Sentinel. Blue Green / Black Brown / Orange Yellow / Red Pink … '
        'The flags should match the soldiers in colour.',
    ),
    "CAR-23": (
        'Five players',
        'This game may be adapted for five players, by the addition of a light-blue and a '
        'light-green ball, and the 10 balls may be arranged thus:—',
    ),
    "G-CAR-01": (
        'The figure is missing.',
        'Numbering is clockwise 1→2→3→4 (inferred from the surviving label order and "No. 3 '
        'has to invade castles 4, 1, 2"). Use the layouts in §3.4.',
    ),
    "G-CAR-02": (
        'Lawn → table mapping.',
        'As in §3.1. Flags become 2-tile towers.',
    ),
    "G-CAR-03": (
        '"Placed behind the flag".',
        'The prisoner is placed behind the tower, on the side away from the door. Its centre '
        'is at (tower outer face + r + 2 mm) on the castle axis, with further prisoners '
        'offset ±22 mm sideways.',
    ),
    "G-CAR-04": (
        '"Placed behind the door": which door, and what progress?',
        'The door of the castle where the soldier was held, on the flag side: the midpoint '
        'between the door line and the tower face. The soldier is still inside that castle '
        'and is credited with gate and door, so its next item is the flag there.',
    ),
    "G-CAR-05": (
        'Immunity: "until after his next turn".',
        'The soldier is immune from the release instant until the end of its own next turn '
        '(its next soldier-round play). Immunity blocks CAR-09 and CAR-10 for that soldier '
        'only.',
    ),
    "G-CAR-06": (
        'Meaning of "may be played again".',
        'Non-cumulative. A stroke containing at least one Rule IV event grants exactly one '
        'more stroke, no matter how many events happened. This is the 1860s croquet '
        'convention.',
    ),
    "G-CAR-07": (
        'Croquet on a table.',
        'The player declares croquet, places his ball touching the other and flicks his own. '
        'If the other ball moves and is not the player\'s own sentinel off duty, it is put '
        'back, with no penalty. The other ball\'s eligibility is checked at the touch and '
        'again when the croquet is taken.',
    ),
    "G-CAR-08": (
        'How croquet and "play again" combine.',
        'At most one following stroke per stroke. If the stroke contained an eligible touch, '
        'the following stroke may be played as a croquet stroke; declined, the turn ends '
        'unless a Rule IV event in the same stroke grants a normal stroke '
        '(car_croquet_and_continue=true: a croquet stroke plus one normal stroke).',
    ),
    "G-CAR-09": (
        'Clearing the no-repeat croquet set.',
        'Any Rule IV event by the active ball clears it.',
    ),
    "G-CAR-10": (
        'A sentinel entering or leaving twice.',
        'In its own turn, the crossing that would be the second leave (or the second enter) '
        'is a foul. Roll back the stroke, void its effects, and end the turn. Passive double '
        'crossings (the sentinel is knocked) are allowed and change duty normally.',
    ),
    "G-CAR-11": (
        'Timing of capture B and the gate credit.',
        'Duties are evaluated at the crossing instant. The gate-in counts as progress, but no '
        '"play again" is given because the soldier is captured. Capture B also applies to '
        'passive entries (knocked in).',
    ),
    "G-CAR-12": (
        '"Touch" at rest.',
        'Onset only, as in CCN (car_capture_on_resting_touch=true: a soldier left touching an '
        'on-duty sentinel at rest, both within the sentinel\'s castle, is taken too).',
    ),
    "G-CAR-13": (
        '"Put back where he was at the beginning".',
        'The exact CAR-03 point. If it is occupied, use the nearest free point on the castle '
        'axis between the gate and the door.',
    ),
    "G-CAR-14": (
        'Winning details.',
        'The soldier\'s flag touch must come after it re-enters its own castle; the '
        'sentinel\'s touch must come after the soldier\'s, while the sentinel is on duty. '
        'Passive touches count. A sentinel touching the flag before the soldier has finished '
        'has no effect.',
    ),
    "G-CAR-15": (
        'Turns of soldiers that have finished or are prisoners.',
        'A prisoner\'s turn is skipped. A finished soldier may still be played, to obstruct '
        'or croquet, but gets no course events.',
    ),
    "G-CAR-16": (
        'Five players.',
        '5 castles on a pentagonal ring, each invading the other four in order. The hub '
        'layout does not generalise (a 5-post ring has a larger hub), so use `carroll_open` '
        'with castle axes at 72° intervals.',
    ),
    "G-CAR-17": (
        'Which arches are "in his proper course".',
        'The own-gate exit, the four items of each invaded castle, and the own-gate re-entry.',
    ),
    "G-CAR-18": (
        'Table error rules (no source).',
        'Inherit CCN-49/50 (off table), CCN-51/52 (illegal entry, applied to soldiers) and '
        'G-CCN-43 (tiles).',
    ),
    "G-CAR-19": (
        'The sentinel\'s "takes a prisoner" play-again.',
        'Only when the sentinel is the active ball.',
    ),
    "G-CAR-20": (
        'Passive captures and rescues.',
        'Allowed, as in G-CCN-09 and G-CCN-16.',
    ),
}
