import pytest

from tests.rooms.fakes import Clock, make_service, phone_maker


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def service(clock):
    return make_service(clock)


@pytest.fixture
def phone(service):
    return phone_maker(service)
