"""The table as the readers see it, room by room: the platform on each rim reader (and how it is
turned), the figure on each centre. With the simulated board this is also the simulated table's
panel: turn a platform (edge after edge over the reader, as a hand does), bump it, take it out
or put it back, set a figure on a centre or lift it, set the whole table up as the game says,
and the Pi's three buttons on gpiozero's mock pins (they act on the game as the real ones do)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TYPE_CHECKING

from companion.app.table.sensing import UNKNOWN, Reading
from companion.app.table.taps import platform_reading
from companion.app.table.tracking import TableStatus
from companion.app.words.i18n import N_, tr
from companion.app.words.labels import (
    direction_name,
    figure_label,
    first_book,
    platform_home,
    room_name,
)
from companion.engine.fortress import Fortress
from companion.engine.situation import STRIGOI
from ui.screens.page import PageScreen

if TYPE_CHECKING:
    from ui.app import ArmataApp

STATUS_WORDS = {"ready": N_("steady"), "busy": N_("blinking"), "off": N_("off")}


def in_background(step: Callable[[], object]) -> None:
    """Turning a platform takes a moment (edge by edge): never on the screen's thread."""
    threading.Thread(target=step, daemon=True).start()


class TableScreen(PageScreen):
    back_to = "round"

    def show(self, app: ArmataApp, status: TableStatus, choosing: str | None = None) -> None:
        session = app.session
        self.back_to = "round" if session is not None else "home"
        fortress = session.rules.fortress if session is not None else app.fortress
        self.clear(tr("The table"))
        sim = app.hardware.table
        if choosing is not None and sim is not None:
            self._figures(app, choosing)
            return
        if sim is not None and session is not None:
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
            if sim is None or room not in sim.rooms:
                continue
            here = sim.rooms[room]
            row: list[tuple[str, Callable[[], None]]] = []
            if here.platform is not None:
                row += [
                    (tr("Anticlockwise"), lambda r=room: self._turn(app, r, +1)),
                    (tr("Clockwise"), lambda r=room: self._turn(app, r, -1)),
                    (tr("Bump"), lambda r=room: in_background(lambda: sim.bump(r))),
                    (tr("Take out"), lambda r=room: in_background(lambda: sim.remove_platform(r))),
                ]
            elif fortress.rooms[room].platform is not None:
                platform = fortress.rooms[room].platform or ""
                row.append(
                    (
                        tr("Put back"),
                        lambda r=room, p=platform: in_background(
                            lambda: sim.put_platform(r, p, fortress.rooms[r].rotation)
                        ),
                    )
                )
            if here.platform is not None or fortress.rooms[room].platform is None:
                row.append((tr("Centre…"), lambda r=room: self.show(app, app.table_status, r)))
            self.row(row)

    def _rim(self, app: ArmataApp, fortress: Fortress, room: str, value: Reading) -> str:
        if value is UNKNOWN:
            return tr("reader not heard yet")
        if value is None:
            return tr("no platform") if fortress.rooms[room].platform else tr("no platform here")
        binding = app.service.tags.lookup(value)
        reading = platform_reading(binding, fortress.rooms[room].orientation) if binding else None
        if reading is None:
            return tr("a tag that is no platform's")
        home = next((r.id for r in fortress.rooms.values() if r.platform == reading.platform), room)
        return tr("platform of the {home}, book {book} facing {direction}").format(
            home=platform_home(fortress, reading.platform),
            book=first_book(fortress, home),
            direction=direction_name(reading.rotation),
        )

    def _centre(self, app: ArmataApp, value: Reading) -> str:
        if value is UNKNOWN:
            return tr("not heard yet")
        if value is None:
            return tr("nothing")
        binding = app.service.tags.lookup(value)
        if binding is None or binding.kind not in ("hero", "strigoi"):
            return tr("a tag that is no figure's")
        return figure_label(binding.target)

    def _turn(self, app: ArmataApp, room: str, way: int) -> None:
        sim = app.hardware.table
        assert sim is not None
        in_background(lambda: sim.turn(room, sim.rooms[room].rotation + way))

    def _figures(self, app: ArmataApp, room: str) -> None:
        """Which figure to set on the room's centre."""
        sim = app.hardware.table
        assert sim is not None
        self.text(tr("Set on the centre of the {room}:").format(room=room_name(room)))

        def put(figure: str | None) -> None:
            if figure is None:
                in_background(lambda: sim.lift_figure(room))
            else:
                in_background(lambda: sim.put_figure(room, figure))
            self.show(app, app.table_status)

        self.button(tr("nothing (lift the figure)"), lambda: put(None))
        heroes = [h.hero for h in app.session.state.heroes] if app.session is not None else []
        for figure in [*heroes, *(s for s in STRIGOI if s != "supreme")]:
            self.button(figure_label(figure), lambda f=figure: put(f))

    def _arrange(self, app: ArmataApp) -> None:
        app.service.simulated_hands()
