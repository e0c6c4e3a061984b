"""HTTP routes of the game."""

from django.urls import path

from games.accounts import record_views
from games.accounts import views as account_views
from games.arena import views as arena_views
from games.daily import views as daily_views
from games.home import views as home_views
from games.reports import views as report_views
from games.rooms import views

urlpatterns = [
    path("", home_views.home, name="home"),
    path("join/", home_views.join_by_code, name="join-by-code"),
    path("r/<str:code>/", views.room, name="room"),
    path("r/<str:code>/join/", views.join, name="join"),
    path("r/<str:code>/leave/", views.leave, name="leave"),
    path("r/<str:code>/rounds/<int:number>/", record_views.past_round, name="past-round"),
    path("me/", record_views.record, name="record"),
    path("account/signup/", account_views.signup, name="signup"),
    path("account/login/", account_views.login, name="login"),
    path("account/logout/", account_views.logout, name="logout"),
    path("account/password/", account_views.password_change, name="password-change"),
    path("account/delete/", account_views.account_delete_view, name="account-delete"),
    path(
        "r/<str:code>/rounds/<int:number>/results.json",
        views.round_results,
        name="round-results",
    ),
    path("daily/", daily_views.daily_home, name="daily"),
    path("daily/<str:game>/", daily_views.daily_today, name="daily-today"),
    path("daily/<str:game>/<str:day>/", daily_views.daily_day_page, name="daily-day"),
    path("daily/<str:game>/<str:day>/start/", daily_views.daily_start, name="daily-start"),
    path("r/<str:code>/reports/", report_views.round_reports, name="round-reports"),
    path("arena/<str:slug>/", arena_views.arena_page, name="arena"),
    path("arena/<str:slug>/join/", arena_views.arena_join, name="arena-join"),
    path(
        "r/<str:code>/rounds/<int:number>/words/<str:word>/definition.json",
        views.word_definition,
        name="word-definition",
    ),
    # A room's watch link: spectators, without a seat (games.spectators.services).
    path("r/<str:code>/watch/", views.room_watch, name="room-watch"),
    path(
        "r/<str:code>/watch/rounds/<int:number>/results.json",
        views.round_results,
        {"watching": True},
        name="watch-results",
    ),
    path(
        "r/<str:code>/watch/rounds/<int:number>/words/<str:word>/definition.json",
        views.word_definition,
        {"watching": True},
        name="watch-word-definition",
    ),
]
