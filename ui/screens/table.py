"""The table as the readers see it, room by room: the platform on each rim reader (and how it is
turned), the figure on each centre. With the simulated board this is also the simulated table's
panel: turn a platform (edge after edge over the reader, as a hand does), bump it, take it out
or put it back, set a figure on a centre or lift it, set the whole table up as the game says,
and the Pi's three buttons on gpiozero's mock pins (they act on the game as the real ones do)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from companion.app.devices.controls import Controls
from companion.app.devices.simulated_hands import HandMove
from companion.app.service import TableService
from companion.app.session.game import GameSession
from companion.app.table.sensing import UNKNOWN, Reading
from companion.app.table.taps import platform_reading
from companion.app.table.tracking import TableStatus
from companion.app.words.i18n import N_, tr
from companion.app.words.names import (
    direction_name,
    figure_label,
    first_book,
    platform_home,
    room_name,
)
from companion.engine.fortress import Fortress
from companion.engine.situation import STRIGOI
from ui.screens.page import PageScreen

STATUS_WORDS = {"ready": N_("steady"), "busy": N_("blinking"), "off": N_("off")}


class TableHost(Protocol):
    """What the Table screen may call (the App gives it): the table service, whose simulated
    hands do every move on their own thread (a platform turns edge by edge), the game, the
    Pi's buttons and the Resync screen."""

    @property
    def service(self) -> TableService: ...
    @property
    def session(self) -> GameSession | None: ...
    @property
    def fortress(self) -> Fortress: ...
    @property
    def controls(self) -> Controls: ...
    @property
    def table_status(self) -> TableStatus: ...
    def open_resync(self) -> None: ...


class TableScreen(PageScreen):
    back_to = "round"

    def show(self, app: TableHost, status: TableStatus, choosing: str | None = None) -> None:
        session = app.session
        self.back_to = "round" if session is not None else "home"
        fortress = session.rules.fortress if session is not None else app.fortress
        self.clear(tr("The table"))
        sim = app.service.simulated_rooms()
        if choosing is not None and sim:
            self._figures(app, choosing)
            return
        if sim and session is not None:
            self.button(tr("Set the table up as the game says"), lambda: self._arrange(app))
        controls = app.controls
        if controls.mock is not None:
            self.text(
                tr("The Pi's buttons (simulated pins); status LED: {state}").format(
                    state=tr(STATUS_WORDS.get(controls.status, controls.status))
                )
            )
            self.row(
                [
                    (tr("Confirm"), lambda: controls.press("confirm")),
                    (tr("Undo"), lambda: controls.press("undo")),
                    (tr("Next"), lambda: controls.press("next")),
                ]
            )
        if status.alerts:
            self.button(tr("Resync ({count})").format(count=len(status.alerts)), app.open_resync)
        for room in fortress.rooms:
            seen = status.sensed.get(room)
            rim = self._rim(app, fortress, room, seen.rim.value if seen else UNKNOWN)
            centre = self._centre(app, seen.centre.value if seen else UNKNOWN)
            self.text(
                tr("{room}: {rim}; centre: {centre}").format(
                    room=room_name(room), rim=rim, centre=centre
                )
            )
            if room not in sim:
                continue
            here = sim[room]
            row: list[tuple[str, Callable[[], None]]] = []
            if here.platform is not None:
                row += [
                    (tr("Anticlockwise"), lambda r=room: self._turn(app, r, +1)),
                    (tr("Clockwise"), lambda r=room: self._turn(app, r, -1)),
                    (tr("Bump"), lambda r=room: self._hand(app, HandMove("bump", r))),
                    (tr("Take out"), lambda r=room: self._hand(app, HandMove("take_out", r))),
                ]
            elif fortress.rooms[room].platform is not None:
                platform = fortress.rooms[room].platform or ""
                row.append(
                    (
                        tr("Put back"),
                        lambda r=room, p=platform: self._hand(
                            app, HandMove("put_back", r, platform=p,
                                          rotation=fortress.rooms[r].rotation)
                        ),
                    )
                )
            if here.platform is not None or fortress.rooms[room].platform is None:
                row.append((tr("Centre…"), lambda r=room: self.show(app, app.table_status, r)))
            self.row(row)

    def _rim(self, app: TableHost, fortress: Fortress, room: str, value: Reading) -> str:
        if value is UNKNOWN:
            return tr("reader not heard yet")
        if value is None:
            return tr("no platform") if fortress.rooms[room].platform else tr("no platform here")
        binding = app.service.tag_binding(value)
        reading = platform_reading(binding, fortress.rooms[room].orientation) if binding else None
        if reading is None:
            return tr("a tag that is no platform's")
        home = next((r.id for r in fortress.rooms.values() if r.platform == reading.platform), room)
        return tr("platform of the {home}, book {book} facing {direction}").format(
            home=platform_home(fortress, reading.platform),
            book=first_book(fortress, home),
            direction=direction_name(reading.rotation),
        )

    def _centre(self, app: TableHost, value: Reading) -> str:
        if value is UNKNOWN:
            return tr("not heard yet")
        if value is None:
            return tr("nothing")
        binding = app.service.tag_binding(value)
        if binding is None or binding.kind not in ("hero", "strigoi"):
            return tr("a tag that is no figure's")
        return figure_label(binding.target)

    def _turn(self, app: TableHost, room: str, way: int) -> None:
        self._hand(app, HandMove("turn", room, way=way))

    @staticmethod
    def _hand(app: TableHost, move: HandMove) -> None:
        app.service.move_by_hand(move)

    def _figures(self, app: TableHost, room: str) -> None:
        """Which figure to set on the room's centre."""
        self.text(tr("Set on the centre of the {room}:").format(room=room_name(room)))

        def put(figure: str | None) -> None:
            if figure is None:
                self._hand(app, HandMove("lift_figure", room))
            else:
                self._hand(app, HandMove("put_figure", room, figure=figure))
            self.show(app, app.table_status)

        self.button(tr("nothing (lift the figure)"), lambda: put(None))
        heroes = [h.hero for h in app.session.state.heroes] if app.session is not None else []
        for figure in [*heroes, *(s for s in STRIGOI if s != "supreme")]:
            self.button(figure_label(figure), lambda f=figure: put(f))

    def _arrange(self, app: TableHost) -> None:
        app.service.simulated_hands()
