"""HTTP routes of the game."""

from django.urls import path

from games import views

urlpatterns = [
    path("", views.home, name="home"),
    path("join/", views.join_by_code, name="join-by-code"),
    path("r/<str:code>/", views.room, name="room"),
    path("r/<str:code>/join/", views.join, name="join"),
    path("r/<str:code>/leave/", views.leave, name="leave"),
    path(
        "r/<str:code>/rounds/<int:number>/results.json",
        views.round_results,
        name="round-results",
    ),
    path(
        "r/<str:code>/rounds/<int:number>/words/<str:word>/definition.json",
        views.word_definition,
        name="word-definition",
    ),
]
