from game_agent import CustomPlayer


class Agent(CustomPlayer):
    def __init__(self):
        super().__init__(method="alphabeta")
