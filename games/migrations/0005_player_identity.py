# Seats move from the Django session's key to a player identity (games.identity): each
# browser session that held seats becomes one identity, so every existing seat keeps its
# holder, and the session key (server-issued and secret) becomes the identity's key.

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def seats_to_identities(apps, schema_editor):
    Player = apps.get_model("games", "Player")
    PlayerIdentity = apps.get_model("games", "PlayerIdentity")
    keys = (
        Player.objects.exclude(session_key="")
        .values_list("session_key", flat=True)
        .distinct()
        .order_by("session_key")
    )
    for key in keys.iterator():
        identity = PlayerIdentity.objects.create(key=key)
        Player.objects.filter(session_key=key).update(identity=identity)


def identities_to_seats(apps, schema_editor):
    Player = apps.get_model("games", "Player")
    for seat in Player.objects.filter(identity__isnull=False).select_related("identity"):
        seat.session_key = seat.identity.key
        seat.save(update_fields=["session_key"])


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0004_given_board_and_standing'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='PlayerIdentity',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('key', models.CharField(help_text='random and secret: what the cookie carries', max_length=64, unique=True)),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('user', models.ForeignKey(blank=True, help_text='the account that owns this identity, if any', null=True, on_delete=django.db.models.deletion.CASCADE, related_name='identities', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'verbose_name_plural': 'player identities',
            },
        ),
        migrations.AddField(
            model_name='player',
            name='identity',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='seats', to='games.playeridentity'),
        ),
        migrations.RunPython(seats_to_identities, identities_to_seats),
        migrations.RemoveConstraint(
            model_name='player',
            name='one_seat_per_session',
        ),
        migrations.RemoveField(
            model_name='player',
            name='session_key',
        ),
        migrations.AddConstraint(
            model_name='player',
            constraint=models.UniqueConstraint(fields=('room', 'identity'), name='one_seat_per_identity'),
        ),
    ]
