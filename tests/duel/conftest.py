import pytest

from tests.duel.phones import duel_phone_maker
from tests.rooms.conftest import clock, service  # noqa: F401  (the same clock and service)


@pytest.fixture
def phone(service):  # noqa: F811
    return duel_phone_maker(service)
